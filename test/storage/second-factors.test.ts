import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/platform/sql/unique-violation.js';
import type { Storage } from '../../src/app/storage.js';
import { isPostgresUrl } from '../helpers/db.js';
import { openTestStorage, type TestStorage } from '../helpers/storage.js';

/**
 * The repository half of the second-factor rules, on SQLite and PostgreSQL: a time step, a
 * recovery code and a WebAuthn challenge are each used up by one conditional UPDATE, so of
 * many parallel uses on several connections exactly one wins.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
let s: Storage;
let opened: TestStorage;
let seq = 0;

beforeAll(async () => {
  opened = await openTestStorage('2fa');
  s = opened.storage;
});
afterAll(async () => {
  await opened.close();
});

const user = async () => {
  const name = `u${process.pid}x${++seq}`;
  return s.users.create(
    {
      username: name,
      email: `${name}@example.com`,
      displayName: name,
      passwordHash: 'h',
      emailVerified: false,
      roles: [],
    },
    1,
  );
};

describe(`second factors (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('a pending secret can be replaced until it is enabled, then not', async () => {
    const u = await user();
    expect(await s.secondFactors.findTotp(u.id)).toBeUndefined();
    expect(await s.secondFactors.savePendingTotp(u.id, 'sealed-1', 10)).toBe(
      true,
    );
    expect(await s.secondFactors.savePendingTotp(u.id, 'sealed-2', 20)).toBe(
      true,
    );
    expect(await s.secondFactors.findTotp(u.id)).toEqual({
      userId: u.id,
      secretEnc: 'sealed-2',
      enabled: false,
      lastStep: null,
      createdAt: 20,
    });
    expect(await s.secondFactors.enableTotp(u.id, ['h1', 'h2'])).toBe(true);
    expect(await s.secondFactors.enableTotp(u.id, ['h3'])).toBe(false);
    expect(await s.secondFactors.savePendingTotp(u.id, 'sealed-3', 30)).toBe(
      false,
    );
    expect((await s.secondFactors.findTotp(u.id))?.secretEnc).toBe('sealed-2');
    expect(await s.secondFactors.unusedRecoveryCodes(u.id)).toBe(2);
    expect(await s.secondFactors.removeTotp(u.id)).toBe(true);
    expect(await s.secondFactors.removeTotp(u.id)).toBe(false);
    expect(await s.secondFactors.unusedRecoveryCodes(u.id)).toBe(0);
  });

  it('50 parallel claims of one time step: exactly one wins; older steps lose, newer win', async () => {
    const u = await user();
    await s.secondFactors.savePendingTotp(u.id, 'x', 1);
    const claims = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.secondFactors.claimTotpStep(u.id, 1000),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await s.secondFactors.claimTotpStep(u.id, 999)).toBe(false);
    expect(await s.secondFactors.claimTotpStep(u.id, 1001)).toBe(true);
    expect((await s.secondFactors.findTotp(u.id))?.lastStep).toBe(1001);
  });

  it('50 parallel uses of one recovery code: exactly one wins; replacing voids the old codes', async () => {
    const u = await user();
    await s.secondFactors.savePendingTotp(u.id, 'x', 1);
    await s.secondFactors.enableTotp(u.id, ['a', 'b']);
    const uses = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.secondFactors.useRecoveryCode(u.id, 'a', 5),
      ),
    );
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await s.secondFactors.unusedRecoveryCodes(u.id)).toBe(1);
    const other = await user();
    expect(await s.secondFactors.useRecoveryCode(other.id, 'b', 5)).toBe(false);
    await s.secondFactors.replaceRecoveryCodes(u.id, ['c']);
    expect(await s.secondFactors.useRecoveryCode(u.id, 'b', 6)).toBe(false);
    expect(await s.secondFactors.useRecoveryCode(u.id, 'c', 6)).toBe(true);
  });

  it('passkeys: create, list, use, remove; a credential registers once', async () => {
    const u = await user();
    const key = {
      credentialId: `cred${seq}`,
      userId: u.id,
      publicKey: 'pk',
      counter: 0,
      transports: ['internal'],
      name: 'Laptop',
      createdAt: 100,
    };
    await s.passkeys.create(key);
    await expect(
      s.passkeys.create({ ...key, name: 'again' }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    await s.passkeys.recordUse(key.credentialId, 7, 200);
    expect(await s.passkeys.find(key.credentialId)).toEqual({
      ...key,
      counter: 7,
      lastUsedAt: 200,
    });
    expect(await s.passkeys.listByUser(u.id)).toHaveLength(1);
    const other = await user();
    expect(await s.passkeys.remove(other.id, key.credentialId)).toBe(false);
    expect(await s.passkeys.remove(u.id, key.credentialId)).toBe(true);
    expect(await s.passkeys.removeAll(u.id)).toBe(0);
  });

  it('50 parallel takes of one challenge: exactly one; none after expiry or for another purpose', async () => {
    await s.passkeys.saveChallenge('ch-1', 'login', null, 1000);
    expect(
      await s.passkeys.takeChallenge('ch-1', 'register', 10),
    ).toBeUndefined();
    const takes = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.passkeys.takeChallenge('ch-1', 'login', 10),
      ),
    );
    expect(takes.filter((t) => t !== undefined)).toEqual([{ userId: null }]);
    await s.passkeys.saveChallenge('ch-2', 'register', 42, 1000);
    expect(
      await s.passkeys.takeChallenge('ch-2', 'register', 1000),
    ).toBeUndefined();
    expect(await s.passkeys.purgeChallenges(1001)).toBeGreaterThanOrEqual(2);
    await s.passkeys.saveChallenge('ch-3', 'register', 42, 1000);
    expect(await s.passkeys.takeChallenge('ch-3', 'register', 999)).toEqual({
      userId: 42,
    });
  });
});
