import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { openTestStorage, type TestStorage } from '../helpers/storage.js';

/** Re-authentication grants on SQLite and PostgreSQL: bound to user, session and purpose, and expiring. */
let s: Storage;
let opened: TestStorage;

beforeAll(async () => {
  opened = await openTestStorage('reauth');
  s = opened.storage;
});
afterAll(async () => {
  await opened.close();
});

describe('reauth grants', () => {
  it('are live only for their user, session and purpose, until they expire or are removed', async () => {
    const g = s.reauthGrants;
    await g.put(1, 'sid:a', 'passkey', 1_000, 0);
    expect(await g.live(1, 'sid:a', 'passkey', 999)).toBe(true);
    expect(await g.live(1, 'sid:a', 'passkey', 1_000)).toBe(false);
    expect(await g.live(1, 'sid:b', 'passkey', 0)).toBe(false);
    expect(await g.live(2, 'sid:a', 'passkey', 0)).toBe(false);
    expect(await g.live(1, 'sid:a', 'totp', 0)).toBe(false);
    // Renewing moves the expiry; removing ends it.
    await g.put(1, 'sid:a', 'passkey', 5_000, 10);
    expect(await g.live(1, 'sid:a', 'passkey', 4_999)).toBe(true);
    await g.remove(1, 'sid:a', 'passkey');
    expect(await g.live(1, 'sid:a', 'passkey', 0)).toBe(false);
  });

  it('expired ones are purged; live ones stay', async () => {
    const g = s.reauthGrants;
    await g.put(7, 'sid:x', 'email', 100, 0);
    await g.put(8, 'sid:y', 'email', 10_000, 0);
    expect(await g.purgeExpired(5_000)).toBeGreaterThanOrEqual(1);
    expect(await g.live(8, 'sid:y', 'email', 5_000)).toBe(true);
    expect(await g.purgeExpired(5_000)).toBe(0);
  });
});
