import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { oidcUnique as unique } from './suite-helpers.js';

/** What a user has granted clients: live refresh families and consents. */
export function oidcGrantsStorageSuite(storage: () => Storage): void {
  it('oidc: live families of a user: unrevoked, after the cut-off, with an unexpired token; last use is the newest token', async () => {
    const s = storage();
    // A user id no other run of this suite uses (the PostgreSQL database outlives runs).
    const uid = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
    const [live, older, revoked, expired, cutOff, empty] = [
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ].map((k) => unique(`lf${k}`)) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const fam = async (
      id: string,
      createdAt: number,
      tokens: Array<[number, number]>,
    ) => {
      await s.refreshTokens.createFamily({
        familyId: id,
        userId: uid,
        clientId: 'lc',
        createdAt,
      });
      for (const [createdAt2, expiresAt] of tokens) {
        await s.refreshTokens.create({
          tokenHash: unique('lt'),
          familyId: id,
          clientId: 'lc',
          userId: uid,
          scope: 'openid',
          authTime: createdAt,
          createdAt: createdAt2,
          expiresAt,
        });
      }
    };
    await fam(live, 3000, [
      [3000, 9000],
      [4500, 10_000],
    ]);
    await fam(older, 2500, [[2500, 9000]]);
    await fam(revoked, 2600, [[2600, 9000]]);
    await s.refreshTokens.revokeFamily(revoked, 2700);
    await fam(expired, 2700, [[2700, 4000]]);
    await fam(cutOff, 1000, [[1000, 9000]]);
    await fam(empty, 2800, []);
    const listed = await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 10);
    expect(listed).toEqual([
      { familyId: live, clientId: 'lc', createdAt: 3000, lastUsedAt: 4500 },
      { familyId: older, clientId: 'lc', createdAt: 2500, lastUsedAt: 2500 },
    ]);
    expect(await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 1)).toEqual([
      listed[0],
    ]);
    expect(
      await s.refreshTokens.listLiveFamilies(uid + 1, 5000, 0, 10),
    ).toEqual([]);
    // Revoking "all live" takes exactly the listed ones, once.
    expect(
      (await s.refreshTokens.revokeLiveFamiliesOf(uid, 5000, 2000)).sort(),
    ).toEqual([live, older].sort());
    expect(await s.refreshTokens.revokeLiveFamiliesOf(uid, 5000, 2000)).toEqual(
      [],
    );
    expect(await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 10)).toEqual(
      [],
    );
    expect((await s.refreshTokens.findFamily(cutOff))?.revokedAt).toBeNull();
  });

  it('oidc: consents upsert the scope set per user and client, list newest first, delete', async () => {
    const s = storage();
    const c1 = unique('cc');
    const c2 = unique('cc');
    expect(await s.consents.find(9, c1)).toBeUndefined();
    expect(await s.consents.upsert(9, c1, ['openid'], 100)).toEqual({
      userId: 9,
      clientId: c1,
      scopes: ['openid'],
      createdAt: 100,
      updatedAt: 100,
    });
    expect(await s.consents.upsert(9, c1, ['openid', 'email'], 200)).toEqual({
      userId: 9,
      clientId: c1,
      scopes: ['openid', 'email'],
      createdAt: 100,
      updatedAt: 200,
    });
    await Promise.all([
      s.consents.upsert(9, c2, ['profile'], 300),
      s.consents.upsert(9, c2, ['profile'], 300),
    ]);
    expect((await s.consents.listByUser(9)).map((c) => c.clientId)).toEqual([
      c2,
      c1,
    ]);
    expect(await s.consents.delete(9, c1)).toBe(true);
    expect(await s.consents.delete(9, c1)).toBe(false);
    expect(await s.consents.find(9, c1)).toBeUndefined();
    expect(await s.consents.listByUser(10)).toEqual([]);
  });
}
