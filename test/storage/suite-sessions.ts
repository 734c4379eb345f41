import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { newUser, unique } from './suite-helpers.js';

/** Token revocations and center sessions. */
export function sessionsStorageSuite(storage: () => Storage): void {
  it('revocations: idempotent revoke, revokedSince, purge', async () => {
    const s = storage();
    const jti = unique('jti');
    expect(await s.revocations.isRevoked(jti)).toBe(false);
    await s.revocations.revoke(jti, 1, 2000, 10_000);
    await s.revocations.revoke(jti, 1, 2000, 10_500);
    expect(await s.revocations.isRevoked(jti)).toBe(true);
    const old = unique('jti');
    await s.revocations.revoke(old, 1, 500, 10_000);
    const since = await s.revocations.revokedSince(10_000, 1000);
    expect(since).toContain(jti);
    expect(since).not.toContain(old);
    expect(await s.revocations.revokedSince(10_001, 1000)).not.toContain(jti);
    expect(await s.revocations.purgeExpired(1000)).toBeGreaterThanOrEqual(1);
    expect(await s.revocations.isRevoked(old)).toBe(false);
    expect(await s.revocations.isRevoked(jti)).toBe(true);
  });

  it('sessions: create, list live newest first, touch, extend, end once, end all but one, per day, purge', async () => {
    const s = storage();
    const u = await s.users.create(newUser(), 1);
    const base = {
      userId: u.id,
      app: 'account-center',
      ip: '::1',
      userAgent: 'UA',
    };
    const day = 86_400_000;
    await s.sessions.create({
      ...base,
      id: unique('sa'),
      createdAt: 10 * day,
      lastUsedAt: 10 * day,
      expiresAt: 20 * day,
    });
    const b = unique('sb');
    await s.sessions.create({
      ...base,
      id: b,
      createdAt: 10 * day + 5,
      lastUsedAt: 10 * day + 5,
      expiresAt: 20 * day,
    });
    const c = unique('sc');
    await s.sessions.create({
      ...base,
      id: c,
      createdAt: 11 * day,
      lastUsedAt: 11 * day,
      expiresAt: 12 * day,
    });
    expect(
      (await s.sessions.listLive(u.id, 11 * day, 10)).map((x) => x.id),
    ).toEqual([c, b, expect.any(String)]);
    expect(await s.sessions.listLive(u.id, 20 * day, 10)).toEqual([]);
    await s.sessions.touchMany([b, 'no-such-session'], 15 * day);
    await s.sessions.touchMany([b], 14 * day);
    await s.sessions.touchMany([], 16 * day);
    await s.sessions.extend(c, 30 * day);
    await s.sessions.extend(c, 25 * day);
    expect(await s.sessions.findById(b)).toMatchObject({
      lastUsedAt: 15 * day,
      endedAt: null,
      ip: '::1',
      userAgent: 'UA',
    });
    expect((await s.sessions.findById(c))?.expiresAt).toBe(30 * day);
    const ends = await Promise.all(
      Array.from({ length: 5 }, () => s.sessions.end(b, 16 * day)),
    );
    expect(ends.filter(Boolean)).toHaveLength(1);
    expect(await s.sessions.endAllOf(u.id, 16 * day, c)).toHaveLength(1);
    expect(
      (await s.sessions.listLive(u.id, 16 * day, 10)).map((x) => x.id),
    ).toEqual([c]);
    expect(await s.sessions.startedPerDay(10 * day)).toEqual(
      expect.arrayContaining([
        { day: '1970-01-11', count: 2 },
        { day: '1970-01-12', count: 1 },
      ]),
    );
    expect(await s.sessions.purgeExpired(21 * day)).toBeGreaterThanOrEqual(2);
    expect(await s.sessions.findById(b)).toBeUndefined();
    await s.sessions.deleteAllOf(u.id);
    expect(await s.sessions.findById(c)).toBeUndefined();
  });
}
