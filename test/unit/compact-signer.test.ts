import {
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
} from 'node:crypto';
import {
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtSigner } from '../../src/platform/jwt/jwt.js';

const ALGS = [
  { alg: 'RS256', options: { modulusLength: 2048 } },
  { alg: 'ES256', options: {} },
  { alg: 'EdDSA', options: { crv: 'Ed25519' } },
] as const;

describe('signing with a private key (OIDC tokens)', () => {
  for (const { alg, options } of ALGS) {
    it(`${alg}: a compact JWS that jose verifies with the public key, header and claims as given`, async () => {
      const { privateKey } = await generateKeyPair(alg, {
        ...options,
        extractable: true,
      });
      const key = createPrivateKey({
        key: (await exportJWK(privateKey)) as JsonWebKey,
        format: 'jwk',
      });
      const sign = jwtSigner({ alg, kid: 'kid-1', privateKey: key }, 'at+jwt');
      const claims = {
        iss: 'https://id.example',
        sub: '42',
        aud: 'app',
        name: 'Zoë 🎮',
        iat: 1_800_000_000,
        exp: 4_000_000_000,
      };

      // Many at once, as under load: every answer must carry its own claims.
      const tokens = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          sign({ ...claims, sub: String(i) }),
        ),
      );
      for (const [i, token] of tokens.entries()) {
        expect(token.split('.')).toHaveLength(3);
        expect(decodeProtectedHeader(token)).toEqual({
          alg,
          kid: 'kid-1',
          typ: 'at+jwt',
        });
        expect(
          Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'),
        ).toBe(`{"alg":"${alg}","kid":"kid-1","typ":"at+jwt"}`);
        const { payload } = await jwtVerify(token, createPublicKey(key), {
          algorithms: [alg],
          typ: 'at+jwt',
          issuer: 'https://id.example',
        });
        expect(payload).toEqual({ ...claims, sub: String(i) });
      }
    });
  }

  it('a token altered after signing fails verification', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', {
      crv: 'Ed25519',
      extractable: true,
    });
    const key = createPrivateKey({
      key: (await exportJWK(privateKey)) as JsonWebKey,
      format: 'jwk',
    });
    const token = await jwtSigner(
      { alg: 'EdDSA', kid: 'k', privateKey: key },
      'JWT',
    )({ sub: '1' });
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from('{"sub":"2"}').toString('base64url')}.${signature}`;
    await expect(
      jwtVerify(forged, createPublicKey(key), { algorithms: ['EdDSA'] }),
    ).rejects.toThrow();
  });
});
