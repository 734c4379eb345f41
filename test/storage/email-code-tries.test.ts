import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import type { Storage } from '../../src/app/storage.js';
import { isPostgresUrl } from '../helpers/db.js';
import { databaseAt } from '../helpers/migrated-to.js';
import { openTestStorage, type TestStorage } from '../helpers/storage.js';

/**
 * The repository half of the e-mail code rules, on SQLite and on PostgreSQL: a try is counted
 * by one conditional UPDATE, so parallel tries on several connections never exceed the limit;
 * and e-mail keys fold ASCII case only.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
let storage: Storage;
let opened: TestStorage;

beforeAll(async () => {
  opened = await openTestStorage('tries');
  storage = opened.storage;
});
afterAll(async () => {
  await opened.close();
});

describe(`e-mail code tries (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('100 parallel takeTry calls on one code: exactly 5 are counted, on the newest live code', async () => {
    await storage.emailCodes.create({
      email: 'Tries@Example.com',
      purpose: 'login',
      codeHash: 'old',
      expiresAt: 10_000,
      createdAt: 1000,
    });
    await storage.emailCodes.create({
      email: 'tries@example.com',
      purpose: 'login',
      codeHash: 'new',
      expiresAt: 10_000,
      createdAt: 2000,
    });
    const tries = await Promise.all(
      Array.from({ length: 100 }, () =>
        storage.emailCodes.takeTry('TRIES@example.COM', 'login', 5000, 5),
      ),
    );
    const counted = tries.filter((t) => t !== undefined);
    expect(counted).toHaveLength(5);
    expect(new Set(counted.map((t) => t!.codeHash))).toEqual(new Set(['new']));
    expect(
      (await storage.emailCodes.findLatest('tries@example.com', 'login', 5000))
        ?.attempts,
    ).toBe(5);
  });

  it('no try on a used, expired or other-purpose code', async () => {
    await storage.emailCodes.create({
      email: 'used@example.com',
      purpose: 'login',
      codeHash: 'h',
      expiresAt: 10_000,
      createdAt: 1000,
    });
    const first = await storage.emailCodes.takeTry(
      'used@example.com',
      'login',
      5000,
      5,
    );
    expect(await storage.emailCodes.markUsed(first!.id, 5000)).toBe(true);
    expect(
      await storage.emailCodes.takeTry('used@example.com', 'login', 5000, 5),
    ).toBeUndefined();
    await storage.emailCodes.create({
      email: 'late@example.com',
      purpose: 'login',
      codeHash: 'h',
      expiresAt: 10_000,
      createdAt: 1000,
    });
    expect(
      await storage.emailCodes.takeTry('late@example.com', 'login', 10_000, 5),
    ).toBeUndefined();
    expect(
      await storage.emailCodes.takeTry(
        'late@example.com',
        'reset_password',
        5000,
        5,
      ),
    ).toBeUndefined();
  });

  it('folds ASCII case only: KELVIN SIGN is not k', async () => {
    await storage.emailCodes.create({
      email: 'kate@example.com',
      purpose: 'reset_password',
      codeHash: 'h',
      expiresAt: 10_000,
      createdAt: 1000,
    });
    expect(
      await storage.emailCodes.takeTry(
        '\u212aate@example.com',
        'reset_password',
        5000,
        5,
      ),
    ).toBeUndefined();
    expect(
      await storage.emailCodes.takeTry(
        'KATE@example.com',
        'reset_password',
        5000,
        5,
      ),
    ).toBeDefined();
    const kate = await storage.users.create(
      {
        username: 'kate_k',
        email: 'Kate@Example.com',
        displayName: 'k',
        passwordHash: 'h',
        emailVerified: false,
        roles: [],
      },
      1,
    );
    expect(
      await storage.users.findByEmail('\u212aate@example.com'),
    ).toBeUndefined();
    expect((await storage.users.findByEmail('KATE@EXAMPLE.COM'))?.id).toBe(
      kate.id,
    );
    expect(await storage.users.findByUsername('\u212aate_k')).toBeUndefined();
    // A look-alike address is a different account, not a duplicate.
    const other = await storage.users.create(
      {
        username: 'kelvin_k',
        email: '\u212aate@example.com',
        displayName: 'k',
        passwordHash: 'h',
        emailVerified: false,
        roles: [],
      },
      1,
    );
    expect(other.id).not.toBe(kate.id);
    expect(
      (await storage.users.search('\u212aate', 0, 10)).users.map(
        (u) => u.username,
      ),
    ).toEqual(['kelvin_k']);
  });
});

describe('migration 002: keys recomputed with ASCII folding', () => {
  it("a look-alike filed under kate's Unicode key gets its own key; kate can then register", async () => {
    // A database at migration 001 holding a row written the old way (Unicode lower-casing).
    const { db, url, dispose: done } = await databaseAt('001-initial');
    await db
      .insertInto('users')
      .values({
        username: 'kelvin_old',
        username_lower: 'kelvin_old',
        email: '\u212aate@example.com',
        email_lower: 'kate@example.com',
        display_name: 'k',
        password_hash: 'h',
        email_verified: 0,
        roles: '[]',
        banned: 0,
        tokens_valid_after: 0,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await db.destroy();
    const migrated = await createSqlStorage(url);
    try {
      await migrated.migrate();
      expect(
        await migrated.users.findByEmail('kate@example.com'),
      ).toBeUndefined();
      expect(
        (await migrated.users.findByEmail('\u212aate@example.com'))?.username,
      ).toBe('kelvin_old');
      const kate = await migrated.users.create(
        {
          username: 'kate',
          email: 'kate@example.com',
          displayName: 'k',
          passwordHash: 'h',
          emailVerified: false,
          roles: [],
        },
        2,
      );
      expect((await migrated.users.findByEmail('KATE@example.com'))?.id).toBe(
        kate.id,
      );
    } finally {
      await migrated.close();
      await done();
    }
  });
});
