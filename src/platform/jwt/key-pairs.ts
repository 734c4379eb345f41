import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { PrivateJwtKey, PublicJwtKey } from './jwt.js';

/** A key in JSON Web Key form (RFC 7517), as keys are stored and published. */
export type Jwk = JWK;

/** The algorithms the provider's keys may sign with. */
export type KeyPairAlg = 'RS256' | 'ES256' | 'EdDSA';

/** A new extractable key pair for `alg`, and its RFC 7638 thumbprint as its kid. */
export async function newKeyPair(
  alg: KeyPairAlg,
): Promise<{ kid: string; publicJwk: Jwk; privateJwk: Jwk }> {
  const { publicKey, privateKey } =
    alg === 'RS256'
      ? await generateKeyPair('RS256', {
          modulusLength: 2048,
          extractable: true,
        })
      : alg === 'ES256'
        ? await generateKeyPair('ES256', { extractable: true })
        : await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return {
    kid: await calculateJwkThumbprint(publicJwk),
    publicJwk,
    privateJwk: await exportJWK(privateKey),
  };
}

export function privateJwtKey(
  alg: string,
  kid: string,
  privateJwk: Jwk,
): PrivateJwtKey {
  return {
    alg,
    kid,
    privateKey: createPrivateKey({
      key: privateJwk as JsonWebKey,
      format: 'jwk',
    }),
  };
}

export async function publicJwtKey(
  alg: string,
  kid: string,
  publicJwk: Jwk,
): Promise<PublicJwtKey> {
  return {
    alg,
    kid,
    publicKey: (await importJWK(publicJwk, alg)) as CryptoKey,
  };
}
