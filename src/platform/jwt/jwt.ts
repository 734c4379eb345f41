import { createHmac, createSecretKey, sign, type KeyObject } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import { compactVerify, decodeProtectedHeader, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';

/**
 * Every JWT the service signs or checks goes through this module, by key: a shared secret
 * (HS256: the first-party tokens, the authorization tickets) or an asymmetric key pair (the
 * OpenID Connect access and ID tokens). Which library does the work is decided here alone:
 * node:crypto signs, fast-jwt checks the first-party tokens synchronously on every request,
 * jose checks the rest.
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

export const hmacJwtKey = (secret: string | Uint8Array): HmacJwtKey =>
  ({ alg: 'HS256', secret: typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret });

/** What a check demands beyond the signature and the algorithm of the key. */
export interface JwtExpectations {
  /** The header's `typ`. */
  typ?: string;
  issuer?: string;
  /** The clock (ms) expiry is judged by. */
  nowMs: number;
}

/**
 * A signer for `typ` tokens. HS256 signs in place and returns the token: an HMAC costs less
 * than a hop to another thread, and the first-party tokens are issued synchronously. A private
 * key signs on libuv's thread pool (`sign` with a callback), so a signature never holds the
 * event loop and a second core signs while the first serves. Either way the header is fixed
 * per key and encoded once; the claims are serialised as given, so the caller sets `iat` and
 * `exp`.
 */
export function jwtSigner(key: HmacJwtKey, typ?: string): (claims: object) => string;
export function jwtSigner(key: PrivateJwtKey, typ: string): (claims: object) => Promise<string>;
export function jwtSigner(key: HmacJwtKey | PrivateJwtKey, typ = 'JWT'): (claims: object) => string | Promise<string> {
  return 'secret' in key ? hmacSigner(key, typ) : privateKeySigner(key, typ);
}

const encoded = (value: object): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * Byte for byte what fast-jwt's and jose's signers give for the same header and claims
 * (test/unit/hs256-signer.test.ts), without re-encoding the header and copying the claims on
 * every call as they do.
 */
function hmacSigner(key: HmacJwtKey, typ: string): (claims: object) => string {
  const secret = createSecretKey(key.secret);
  const header = `${encoded({ alg: 'HS256', typ })}.`;
  return (claims) => {
    const input = header + encoded(claims);
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
}

/** jose's SignJWT would go through WebCrypto, and fast-jwt's signer runs on the event loop. */
function privateKeySigner(key: PrivateJwtKey, typ: string): (claims: object) => Promise<string> {
  const { alg, kid, privateKey } = key;
  const signingKey = alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' as const } : privateKey;
  const digest = alg === 'EdDSA' ? null : 'sha256';
  const header = `${encoded({ alg, kid, typ })}.`;
  return (claims) => new Promise<string>((resolve, reject) => {
    const input = header + encoded(claims);
    sign(digest, Buffer.from(input), signingKey, (err, signature) => {
      if (err) reject(err);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}

/**
 * A synchronous check of HS256 tokens under `key` (the first-party tokens, on every request):
 * the claims of a correctly signed, unexpired token; throws otherwise. Every other algorithm,
 * `none` above all, fails.
 */
export function hs256Verifier(key: HmacJwtKey): (token: string) => JwtClaims {
  return createVerifier({ key: Buffer.from(key.secret), algorithms: ['HS256'] });
}

/** The claims of a token signed with `key` that meets `expect`; throws otherwise. */
export async function verifyJwt(token: string, key: HmacJwtKey | PublicJwtKey, expect: JwtExpectations): Promise<JwtClaims> {
  const { payload } = await jwtVerify(token, 'secret' in key ? key.secret : key.publicKey, {
    algorithms: [key.alg], typ: expect.typ, issuer: expect.issuer, currentDate: new Date(expect.nowMs),
  });
  return payload;
}

/**
 * The claims of a token signed with `key`, none of them checked (not even expiry): for what
 * may be presented after it expired, as an ID token hint. Throws when the signature is wrong.
 */
export async function verifySignature(token: string, key: PublicJwtKey): Promise<JwtClaims> {
  const { payload } = await compactVerify(token, key.publicKey, { algorithms: [key.alg] });
  const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new Error('the payload is not a claims set');
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
