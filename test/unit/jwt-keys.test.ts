import { describe, expect, it } from 'vitest';
import {
  hmacJwtKey,
  jwtKeyId,
  jwtSigner,
  verifyJwt,
  verifySignature,
} from '../../src/platform/jwt/jwt.js';
import {
  newKeyPair,
  privateJwtKey,
  publicJwtKey,
  type KeyPairAlg,
} from '../../src/platform/jwt/key-pairs.js';

const NOW_MS = 1_800_000_000_000;
const iat = NOW_MS / 1000;
const claims = {
  iss: 'https://id.example',
  sub: '42',
  aud: 'app',
  iat,
  exp: iat + 60,
};

describe('JWTs by key', () => {
  for (const alg of ['RS256', 'ES256', 'EdDSA'] as KeyPairAlg[]) {
    it(`${alg}: a new pair signs, its public half checks issuer, typ and expiry by the clock given`, async () => {
      const pair = await newKeyPair(alg);
      expect(pair.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(pair.publicJwk).not.toHaveProperty('d');
      const token = await jwtSigner(
        privateJwtKey(alg, pair.kid, pair.privateJwk),
        'at+jwt',
      )(claims);
      expect(jwtKeyId(token)).toBe(pair.kid);
      const key = await publicJwtKey(alg, pair.kid, pair.publicJwk);
      expect(
        await verifyJwt(token, key, {
          issuer: claims.iss,
          typ: 'at+jwt',
          nowMs: NOW_MS,
        }),
      ).toEqual(claims);
      await expect(
        verifyJwt(token, key, {
          issuer: 'https://other.example',
          nowMs: NOW_MS,
        }),
      ).rejects.toThrow();
      await expect(
        verifyJwt(token, key, { typ: 'JWT', nowMs: NOW_MS }),
      ).rejects.toThrow();
      await expect(
        verifyJwt(token, key, { nowMs: NOW_MS + 60_000 }),
      ).rejects.toThrow();
      // The signature alone, whatever the time: an expired ID token may still be a logout hint.
      expect(await verifySignature(token, key)).toEqual(claims);
      const other = await newKeyPair(alg);
      await expect(
        verifySignature(
          token,
          await publicJwtKey(alg, other.kid, other.publicJwk),
        ),
      ).rejects.toThrow();
    });
  }

  it('HS256: checked under the same secret only, typ and expiry included', async () => {
    const key = hmacJwtKey(new Uint8Array(32).fill(7));
    const token = await jwtSigner(key, 'ac-authz-ticket')(claims);
    expect(jwtKeyId(token)).toBeUndefined();
    expect(
      await verifyJwt(token, key, {
        typ: 'ac-authz-ticket',
        issuer: claims.iss,
        nowMs: NOW_MS,
      }),
    ).toEqual(claims);
    await expect(
      verifyJwt(token, hmacJwtKey(new Uint8Array(32).fill(8)), {
        nowMs: NOW_MS,
      }),
    ).rejects.toThrow();
    await expect(
      verifyJwt(token, key, { typ: 'JWT', nowMs: NOW_MS }),
    ).rejects.toThrow();
    await expect(
      verifyJwt(token, key, { nowMs: NOW_MS + 60_000 }),
    ).rejects.toThrow();
  });

  it('no kid from what is no JWT', () => {
    for (const junk of ['', 'a.b.c', 'not a token'])
      expect(jwtKeyId(junk)).toBeUndefined();
  });
});
