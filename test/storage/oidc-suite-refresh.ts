import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { oidcUnique as unique } from './suite-helpers.js';

/** Refresh token families and their rotation. */
export function oidcRefreshStorageSuite(storage: () => Storage): void {
  it('oidc: refresh rotation has one winner among 20, revoked family and expiry stop use, revoke by user+client', async () => {
    const s = storage();
    const fam = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
    });
    expect(await s.refreshTokens.findFamily(fam)).toEqual({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
      revokedAt: null,
    });
    const t = {
      familyId: fam,
      clientId: 'rc',
      userId: 5,
      scope: 'openid offline_access',
      authTime: 900,
      createdAt: 1000,
      expiresAt: 50_000,
    };
    const h1 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h1 });
    expect(await s.refreshTokens.findByHash(h1)).toEqual({
      ...t,
      tokenHash: h1,
      usedAt: null,
      revokedAt: null,
      amr: null,
    });
    const federated = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: federated, amr: 'fed' });
    expect((await s.refreshTokens.findByHash(federated))?.amr).toBe('fed');
    const uses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.refreshTokens.use(h1, 2000, `successor-${i}`),
      ),
    );
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(uses.find(Boolean)).toMatchObject({
      tokenHash: h1,
      usedAt: 2000,
      scope: 'openid offline_access',
    });
    expect(await s.refreshTokens.use(h1, 2001, 'late')).toBeUndefined();
    const h2 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h2, createdAt: 1500 });
    expect((await s.refreshTokens.latestInFamily(fam))?.tokenHash).toBe(h2);
    expect(await s.refreshTokens.latestInFamily('no-family')).toBeUndefined();
    // Within one millisecond the token not used yet is the newer, whatever the hashes' order.
    const tie = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: tie,
      userId: 5,
      clientId: 'rc',
      createdAt: 7000,
    });
    const [used, successor] = [`zz-${unique('rt')}`, `aa-${unique('rt')}`];
    await s.refreshTokens.create({
      ...t,
      familyId: tie,
      tokenHash: used,
      createdAt: 7000,
    });
    expect(await s.refreshTokens.use(used, 7000, successor)).toMatchObject({
      tokenHash: used,
    });
    await s.refreshTokens.create({
      ...t,
      familyId: tie,
      tokenHash: successor,
      createdAt: 7000,
    });
    expect((await s.refreshTokens.latestInFamily(tie))?.tokenHash).toBe(
      successor,
    );
    expect(
      await s.refreshTokens.use(h2, 50_000, 'after-expiry'),
    ).toBeUndefined();
    const h3 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h3 });
    expect(await s.refreshTokens.revokeFamily(fam, 3000)).toBe(true);
    expect(await s.refreshTokens.revokeFamily(fam, 3001)).toBe(false);
    expect(
      await s.refreshTokens.use(h3, 3002, 'after-revocation'),
    ).toBeUndefined();
    expect((await s.refreshTokens.findFamily(fam))?.revokedAt).toBe(3000);
    const a = unique('fam');
    const b = unique('fam');
    const other = unique('fam');
    for (const [id, client] of [
      [a, 'rc2'],
      [b, 'rc2'],
      [other, 'rc3'],
    ] as const)
      await s.refreshTokens.createFamily({
        familyId: id,
        userId: 6,
        clientId: client,
        createdAt: 1,
      });
    expect(
      (await s.refreshTokens.revokeFamiliesOf(6, 'rc2', 10)).sort(),
    ).toEqual([a, b].sort());
    expect(await s.refreshTokens.revokeFamiliesOf(6, 'rc2', 11)).toEqual([]);
    expect((await s.refreshTokens.findFamily(other))?.revokedAt).toBeNull();
    // The families a center sign-in authorized end with it, and only that person's.
    const [fromSession, alsoFromSession, elsewhere] = [
      unique('fam'),
      unique('fam'),
      unique('fam'),
    ];
    const sid = unique('sid');
    await s.refreshTokens.createFamily({
      familyId: fromSession,
      userId: 8,
      clientId: 'rc2',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.createFamily({
      familyId: alsoFromSession,
      userId: 8,
      clientId: 'rc3',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.createFamily({
      familyId: elsewhere,
      userId: 8,
      clientId: 'rc2',
      createdAt: 1,
      sessionId: unique('sid'),
    });
    // One granted offline_access outlives the sign-in.
    const offline = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: offline,
      userId: 8,
      clientId: 'rc3',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.create({
      tokenHash: unique('h'),
      familyId: offline,
      clientId: 'rc3',
      userId: 8,
      scope: 'openid offline_access',
      authTime: 1,
      createdAt: 1,
      expiresAt: 99_000,
    });
    expect(await s.refreshTokens.revokeFamiliesOfSession(sid, 9, 12)).toEqual(
      [],
    );
    expect(
      (await s.refreshTokens.revokeFamiliesOfSession(sid, 8, 12)).sort(),
    ).toEqual([fromSession, alsoFromSession].sort());
    expect(await s.refreshTokens.revokeFamiliesOfSession(sid, 8, 13)).toEqual(
      [],
    );
    expect((await s.refreshTokens.findFamily(elsewhere))?.revokedAt).toBeNull();
    expect((await s.refreshTokens.findFamily(offline))?.revokedAt).toBeNull();
    expect(await s.refreshTokens.purgeExpired(50_001)).toBeGreaterThanOrEqual(
      3,
    );
    expect(await s.refreshTokens.findByHash(h3)).toBeUndefined();
  });

  it('oidc: a presented refresh token shows how far its rotation had got: unused, used with its successor pending, answered', async () => {
    const s = storage();
    const fam = unique('pfam');
    await s.refreshTokens.createFamily({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
    });
    const t = {
      familyId: fam,
      clientId: 'rc',
      userId: 5,
      scope: 'openid',
      authTime: 900,
      createdAt: 1000,
      expiresAt: 50_000,
    };
    const [first, second] = [unique('prt'), unique('prt')];
    await s.refreshTokens.create({ ...t, tokenHash: first });
    expect(await s.refreshTokens.findPresented(first)).toEqual({
      ...t,
      tokenHash: first,
      usedAt: null,
      revokedAt: null,
      amr: null,
      successorHash: null,
      successorStored: false,
    });
    expect(
      await s.refreshTokens.findPresented('no-such-token'),
    ).toBeUndefined();
    // Used, the successor named but not stored yet: the rotation is still running.
    expect(await s.refreshTokens.use(first, 1000, second)).toMatchObject({
      tokenHash: first,
      usedAt: 1000,
    });
    expect(await s.refreshTokens.findPresented(first)).toMatchObject({
      usedAt: 1000,
      successorHash: second,
      successorStored: false,
    });
    // Within the same millisecond, once the successor is stored its rotation has answered.
    await s.refreshTokens.create({ ...t, tokenHash: second });
    expect(await s.refreshTokens.findPresented(first)).toMatchObject({
      successorHash: second,
      successorStored: true,
    });
    expect(await s.refreshTokens.findPresented(second)).toMatchObject({
      usedAt: null,
      successorHash: null,
      successorStored: false,
    });
    // findByHash keeps its shape.
    expect(await s.refreshTokens.findByHash(first)).toEqual({
      ...t,
      tokenHash: first,
      usedAt: 1000,
      revokedAt: null,
      amr: null,
    });
  });
}
