import { describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import { isPostgresUrl } from '../helpers/db.js';
import { databaseAt } from '../helpers/migrated-to.js';

const pgUrl = process.env.TEST_DATABASE_URL;

describe(`migration 007: rotations record their successor (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('a token used before successors were recorded reads as answered: presenting it again is reuse', async () => {
    // A database at migration 006 holding a rotated token (used, its successor stored) and the successor.
    const { db, url, dispose: done } = await databaseAt('006-reauth-grants');
    await db
      .insertInto('refresh_families')
      .values({
        family_id: 'fam-old',
        user_id: 3,
        client_id: 'c',
        created_at: 1000,
        revoked_at: null,
      })
      .execute();
    const row = {
      family_id: 'fam-old',
      client_id: 'c',
      user_id: 3,
      scope: 'openid',
      auth_time: 900,
      created_at: 1000,
      expires_at: 9_000_000_000_000,
      revoked_at: null,
    };
    await db
      .insertInto('refresh_tokens')
      .values([
        { ...row, token_hash: 'rotated', used_at: 2000 },
        { ...row, token_hash: 'current', used_at: null },
      ])
      .execute();
    await db.destroy();
    const migrated = await createSqlStorage(url);
    try {
      await migrated.migrate();
      expect(
        await migrated.refreshTokens.findPresented('rotated'),
      ).toMatchObject({
        usedAt: 2000,
        successorHash: null,
        successorStored: true,
      });
      expect(
        await migrated.refreshTokens.findPresented('current'),
      ).toMatchObject({
        usedAt: null,
        successorHash: null,
        successorStored: false,
      });
      expect(
        await migrated.refreshTokens.use('current', 3000, 'next'),
      ).toMatchObject({ tokenHash: 'current', usedAt: 3000 });
      expect(
        await migrated.refreshTokens.findPresented('current'),
      ).toMatchObject({ successorHash: 'next', successorStored: false });
    } finally {
      await migrated.close();
      await done();
    }
  });
});
