import type { KeyObject } from 'node:crypto';
import {
  SignJWT,
  compactVerify,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
} from 'jose';

/**
 * Every JWT the service signs or checks goes through this module, by key: a shared secret
 * (HS256: the first-party tokens, the authorization tickets) or an asymmetric key pair (the
 * OpenID Connect access and ID tokens). jose signs and checks every one of them.
 */
export type JwtClaims = JWTPayload;

/** A shared secret: tokens the service both signs and checks itself. */
export interface HmacJwtKey {
  readonly alg: 'HS256';
  readonly secret: Uint8Array;
}

/** A private key of the provider: signs, naming itself by `kid` in each header. */
export interface PrivateJwtKey {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: KeyObject;
}

/** A published public key: checks what its private key signed. */
export interface PublicJwtKey {
  readonly alg: string;
  readonly kid: string;
  readonly publicKey: CryptoKey;
}

export const hmacJwtKey = (secret: string | Uint8Array): HmacJwtKey => ({
  alg: 'HS256',
  secret: typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret,
});

/**
 * The key as a WebCrypto CryptoKey, made once per key. jose signs and checks with WebCrypto and
 * takes a CryptoKey as it is; a secret's bytes or a KeyObject it imports anew for every token.
 */
const cryptoKeys = new WeakMap<
  HmacJwtKey | PrivateJwtKey,
  Promise<CryptoKey>
>();
function cryptoKeyOf(key: HmacJwtKey | PrivateJwtKey): Promise<CryptoKey> {
  let made = cryptoKeys.get(key);
  if (made === undefined) {
    made =
      'secret' in key
        ? globalThis.crypto.subtle.importKey(
            'raw',
            key.secret,
            { name: 'HMAC', hash: 'SHA-256' },
            false,
            ['sign', 'verify'],
          )
        : (importJWK(
            key.privateKey.export({ format: 'jwk' }),
            key.alg,
          ) as Promise<CryptoKey>);
    cryptoKeys.set(key, made);
  }
  return made;
}

/** What a check demands beyond the signature and the algorithm of the key. */
export interface JwtExpectations {
  /** The header's `typ`; any when left out. */
  typ?: string;
  issuer?: string;
  /** The clock (ms) expiry is judged by. */
  nowMs: number;
}

/**
 * A signer of `typ` tokens under `key`. The header is `{ alg, typ }` for a shared secret and
 * `{ alg, kid, typ }` for a private key; the claims are serialised as given, so the caller
 * sets `iat` and `exp`.
 */
export function jwtSigner(
  key: HmacJwtKey | PrivateJwtKey,
  typ = 'JWT',
): (claims: object) => Promise<string> {
  const header =
    'secret' in key
      ? { alg: key.alg, typ }
      : { alg: key.alg, kid: key.kid, typ };
  return async (claims) =>
    new SignJWT(claims as JwtClaims)
      .setProtectedHeader(header)
      .sign(await cryptoKeyOf(key));
}

/** The claims of a token signed with `key` that meets `expect`; throws otherwise. */
export async function verifyJwt(
  token: string,
  key: HmacJwtKey | PublicJwtKey,
  expect: JwtExpectations,
): Promise<JwtClaims> {
  const { payload } = await jwtVerify(
    token,
    'secret' in key ? await cryptoKeyOf(key) : key.publicKey,
    {
      algorithms: [key.alg],
      typ: expect.typ,
      issuer: expect.issuer,
      currentDate: new Date(expect.nowMs),
    },
  );
  return payload;
}

/**
 * The claims of a token signed with `key`, none of them checked (not even expiry): for what
 * may be presented after it expired, as an ID token hint. Throws when the signature is wrong.
 */
export async function verifySignature(
  token: string,
  key: PublicJwtKey,
): Promise<JwtClaims> {
  const { payload } = await compactVerify(token, key.publicKey, {
    algorithms: [key.alg],
  });
  const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims))
    throw new Error('the payload is not a claims set');
  return claims as JwtClaims;
}

/** The `kid` a token's header names, unchecked; undefined when it names none or is no JWT. */
export function jwtKeyId(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}
