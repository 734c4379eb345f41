import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { unique, violation } from './suite-helpers.js';

/** One-time codes: authorization, device and e-mail codes. */
export function codesStorageSuite(storage: () => Storage): void {
  it('auth codes: create, find, consume once under 20 concurrent callers, recording the winning token, replay, purge', async () => {
    const s = storage();
    const base = {
      clientId: 'c',
      userId: 7,
      redirectUri: 'https://a/cb',
      scope: 'a b',
      codeChallenge: 'ch',
      codeChallengeMethod: 'S256',
      createdAt: 1000,
    };
    await s.codes.create({ ...base, codeHash: 'code-1', expiresAt: 100_000 });
    expect(await s.codes.findByHash('code-1')).toEqual({
      ...base,
      codeHash: 'code-1',
      expiresAt: 100_000,
      usedAt: null,
      tokenJti: null,
      tokenExp: null,
      replayedAt: null,
      flow: 'v1',
      nonce: null,
      authTime: null,
      redirectUriGiven: true,
      refreshFamily: null,
      amr: null,
      sessionId: null,
    });
    expect(await s.codes.findByHash('nope')).toBeUndefined();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.codes.consume('code-1', 2000, { jti: `jti-${i}`, exp: 99 }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    // The winner's token, and only the winner's, is recorded by the same UPDATE.
    expect(await s.codes.findByHash('code-1')).toMatchObject({
      usedAt: 2000,
      tokenJti: `jti-${winner}`,
      tokenExp: 99,
      replayedAt: null,
    });
    expect(
      await s.codes.consume('code-1', 2001, { jti: 'late', exp: 99 }),
    ).toBe(false);
    expect((await s.codes.findByHash('code-1'))?.tokenJti).toBe(
      `jti-${winner}`,
    );
    await s.codes.create({
      ...base,
      codeHash: 'code-exp',
      expiresAt: 3000,
      codeChallenge: null,
      codeChallengeMethod: null,
    });
    expect(await s.codes.consume('code-exp', 3000, { jti: 'j', exp: 1 })).toBe(
      false,
    );
    expect((await s.codes.findByHash('code-exp'))?.tokenJti).toBeNull();
    expect(await s.codes.consume('nope', 1, { jti: 'j', exp: 1 })).toBe(false);
    expect(await s.codes.markReplayed('code-1', 2500)).toMatchObject({
      tokenJti: `jti-${winner}`,
      replayedAt: 2500,
    });
    expect(await s.codes.markReplayed('nope', 1)).toBeUndefined();
    expect(await s.codes.purgeExpired(3001)).toBe(1);
    expect(await s.codes.findByHash('code-exp')).toBeUndefined();
    expect(await s.codes.findByHash('code-1')).toBeDefined();
  });

  it('device codes: unique user code, conditional transitions, polls, release, purge', async () => {
    const s = storage();
    const d = {
      deviceCodeHash: 'dev-1',
      userCode: '123456',
      clientId: 'c',
      interval: 5,
      expiresAt: 10_000,
      createdAt: 1000,
    };
    await s.devices.create(d);
    expect(await s.devices.findByHash('dev-1')).toEqual({
      ...d,
      status: 'pending',
      userId: null,
      lastPollAt: null,
      scope: null,
    });
    expect(
      await violation(s.devices.create({ ...d, deviceCodeHash: 'dev-2' })),
    ).toBe('user_code');
    expect(
      (await s.devices.findLiveByUserCode('123456', 9999))?.deviceCodeHash,
    ).toBe('dev-1');
    expect(
      await s.devices.findLiveByUserCode('123456', 10_000),
    ).toBeUndefined();
    const approvals = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.devices.transition('dev-1', 'pending', 'approved', 40 + i),
      ),
    );
    expect(approvals.filter(Boolean)).toHaveLength(1);
    const approved = await s.devices.findByHash('dev-1');
    expect(approved?.status).toBe('approved');
    expect(approved?.userId).toBe(40 + approvals.indexOf(true));
    expect(await s.devices.transition('dev-1', 'pending', 'denied')).toBe(
      false,
    );
    expect(await s.devices.transition('dev-1', 'approved', 'used')).toBe(true);
    expect(await s.devices.findByHash('dev-1')).toMatchObject({
      status: 'used',
      userId: approved?.userId,
    });
    await s.devices.recordPoll('dev-1', 5000, 10);
    expect(await s.devices.findByHash('dev-1')).toMatchObject({
      lastPollAt: 5000,
      interval: 10,
    });
    // A used code releases its user code even before expiry; a live pending one does not.
    await s.devices.create({
      ...d,
      deviceCodeHash: 'dev-3',
      userCode: '654321',
    });
    await s.devices.releaseUserCode('654321', 2000);
    expect(await s.devices.findByHash('dev-3')).toBeDefined();
    await s.devices.releaseUserCode('123456', 2000);
    expect(await s.devices.findByHash('dev-1')).toBeUndefined();
    await s.devices.create({ ...d, deviceCodeHash: 'dev-4' });
    await s.devices.releaseUserCode('654321', 10_000);
    expect(await s.devices.findByHash('dev-3')).toBeUndefined();
    expect(await s.devices.purgeExpired(10_001)).toBe(1);
    expect(await s.devices.findByHash('dev-4')).toBeUndefined();
  });

  it('e-mail codes: latest, lastSentAt, attempts, markUsed once, purge', async () => {
    const s = storage();
    const email = `${unique('e')}@Example.com`;
    expect(await s.emailCodes.lastSentAt(email)).toBeUndefined();
    await s.emailCodes.create({
      email,
      purpose: 'login',
      codeHash: 'h1',
      expiresAt: 10_000,
      createdAt: 1000,
    });
    await s.emailCodes.create({
      email,
      purpose: 'login',
      codeHash: 'h2',
      expiresAt: 10_000,
      createdAt: 2000,
    });
    await s.emailCodes.create({
      email,
      purpose: 'verify',
      codeHash: 'h3',
      expiresAt: 20_000,
      createdAt: 3000,
    });
    const latest = await s.emailCodes.findLatest(
      email.toUpperCase(),
      'login',
      5000,
    );
    expect(latest).toMatchObject({
      email: email.toLowerCase(),
      purpose: 'login',
      codeHash: 'h2',
      attempts: 0,
      usedAt: null,
      expiresAt: 10_000,
      createdAt: 2000,
    });
    expect(
      await s.emailCodes.findLatest(email, 'reset_password', 5000),
    ).toBeUndefined();
    expect(
      await s.emailCodes.findLatest(email, 'login', 10_000),
    ).toBeUndefined();
    expect(await s.emailCodes.lastSentAt(email.toLowerCase())).toBe(3000);
    expect(await s.emailCodes.addAttempt(latest!.id)).toBe(1);
    expect(await s.emailCodes.addAttempt(latest!.id)).toBe(2);
    const marks = await Promise.all(
      Array.from({ length: 10 }, () => s.emailCodes.markUsed(latest!.id, 6000)),
    );
    expect(marks.filter(Boolean)).toHaveLength(1);
    expect(await s.emailCodes.findLatest(email, 'login', 5000)).toMatchObject({
      codeHash: 'h1',
    });
    expect(await s.emailCodes.markUsed(latest!.id, 7000)).toBe(false);
    expect(await s.emailCodes.purgeExpired(10_001)).toBeGreaterThanOrEqual(2);
    expect(await s.emailCodes.findLatest(email, 'verify', 5000)).toMatchObject({
      codeHash: 'h3',
    });
  });
}
