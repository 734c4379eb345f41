import { describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import { isPostgresUrl } from '../helpers/db.js';
import { databaseAt } from '../helpers/migrated-to.js';

const pgUrl = process.env.TEST_DATABASE_URL;

/** A user row of a database before the role catalogue. */
const user = (id: number, roles: string[]) => ({
  id,
  username: `u${id}`,
  username_lower: `u${id}`,
  email: `u${id}@example.com`,
  email_lower: `u${id}@example.com`,
  display_name: `u${id}`,
  password_hash: 'x',
  email_verified: 1,
  roles: JSON.stringify(roles),
  banned: 0,
  tokens_valid_after: 0,
  created_at: 1000,
  updated_at: 1000,
});

describe(`migration 018: the role catalogue (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('lists player and admin, and every role users held, with their holders', async () => {
    const { db, url, dispose: done } = await databaseAt('017-mail-outbox');
    await db
      .insertInto('users')
      .values([
        user(1, ['player', 'builder']),
        user(2, ['player', 'admin', 'builder']),
        user(3, ['moderator']),
      ])
      .execute();
    await db.destroy();
    const migrated = await createSqlStorage(url);
    try {
      await migrated.migrate();
      const roles = await migrated.roles.list();
      expect(roles.map((r) => [r.name, r.members, r.builtin])).toEqual([
        ['player', 2, true],
        ['admin', 1, true],
        ['builder', 2, false],
        ['moderator', 1, false],
      ]);
      expect(roles[0]).toMatchObject({
        displayName: '玩家',
        displayNameEn: 'Player',
      });
      expect(roles[3]).toMatchObject({
        displayName: 'moderator',
        displayNameEn: 'moderator',
      });
    } finally {
      await migrated.close();
      await done();
    }
  });
});
