import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/storage/sql/index.js';
import type { Storage } from '../../src/storage/types.js';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';

/** Re-authentication grants on SQLite and PostgreSQL: bound to user, session and purpose, and expiring. */
const pgUrl = process.env.TEST_DATABASE_URL;
let s: Storage;
let dispose: () => Promise<void>;

beforeAll(async () => {
  if (isPostgresUrl(pgUrl)) {
    const fresh = await freshPostgresSchema(pgUrl);
    s = await createSqlStorage(fresh.url);
    dispose = fresh.dispose;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'ac-reauth-'));
    s = await createSqlStorage(`sqlite:${join(dir, 'test.db')}`);
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  }
  await s.migrate();
});
afterAll(async () => {
  await s.close();
  await dispose();
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
