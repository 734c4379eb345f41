import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { oidcSeq as seq, oidcUnique as unique } from './suite-helpers.js';

/** Authorization and device codes as OpenID Connect uses them. */
export function oidcCodesStorageSuite(storage: () => Storage): void {
  it('oidc: codes carry their flow; each consume takes only its own flow, once, recording the refresh family', async () => {
    const s = storage();
    const base = {
      clientId: 'c',
      userId: 7,
      redirectUri: 'https://a/cb',
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      createdAt: 1000,
      expiresAt: 100_000,
    };
    const h = unique('oc');
    await s.codes.create({
      ...base,
      codeHash: h,
      flow: 'oidc',
      nonce: 'n-1',
      authTime: 900,
      redirectUriGiven: false,
    });
    expect(await s.codes.findByHash(h)).toMatchObject({
      flow: 'oidc',
      nonce: 'n-1',
      authTime: 900,
      redirectUriGiven: false,
      refreshFamily: null,
    });
    expect(await s.codes.consume(h, 2000, { jti: 'seed', exp: 1 })).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.codes.consumeOidc(h, 2000, {
          jti: `j${i}`,
          exp: 9,
          refreshFamily: `f${i}`,
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const w = results.indexOf(true);
    expect(await s.codes.findByHash(h)).toMatchObject({
      usedAt: 2000,
      tokenJti: `j${w}`,
      refreshFamily: `f${w}`,
    });
    expect(await s.codes.markReplayed(h, 3000)).toMatchObject({
      tokenJti: `j${w}`,
      refreshFamily: `f${w}`,
      replayedAt: 3000,
    });
    const seed = unique('sc');
    await s.codes.create({ ...base, codeHash: seed });
    expect(
      await s.codes.consumeOidc(seed, 2000, {
        jti: 'x',
        exp: 1,
        refreshFamily: null,
      }),
    ).toBe(false);
    expect(await s.codes.consume(seed, 2000, { jti: 'x', exp: 1 })).toBe(true);
    const expired = unique('ec');
    await s.codes.create({
      ...base,
      codeHash: expired,
      flow: 'oidc',
      expiresAt: 1500,
    });
    expect(
      await s.codes.consumeOidc(expired, 1500, {
        jti: 'x',
        exp: 1,
        refreshFamily: null,
      }),
    ).toBe(false);
  });

  it('oidc: device codes keep the scope asked', async () => {
    const s = storage();
    const h = unique('d');
    await s.devices.create({
      deviceCodeHash: h,
      userCode: String(100000 + (seq % 800000)),
      clientId: 'c',
      interval: 5,
      expiresAt: 10_000,
      createdAt: 1,
      scope: 'openid profile',
    });
    expect((await s.devices.findByHash(h))?.scope).toBe('openid profile');
  });
}
