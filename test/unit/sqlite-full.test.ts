import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { OneConnectionSqliteDialect } from '../../src/platform/sql/sqlite-dialect.js';
import { databaseUnavailable } from '../../src/platform/sql/unavailable.js';

/**
 * A full disk under SQLite, made with `PRAGMA max_page_count` (the fault suite fills a real
 * file system where it may mount one): a transaction that hits it fails with SQLITE_FULL —
 * which answers 503 — not with the failed ROLLBACK that used to hide it, and writes work
 * again once there is room.
 */
interface Db {
  t: { v: string };
}

describe('SQLite with its disk full', () => {
  it('a failed transaction reports SQLITE_FULL, and writes resume once there is room', async () => {
    const raw = new Database(':memory:');
    const db = new Kysely<Db>({
      dialect: new OneConnectionSqliteDialect({ database: raw }),
    });
    await sql`create table t (v text not null)`.execute(db);
    const pages = raw.pragma('page_count', { simple: true }) as number;
    raw.pragma(`max_page_count = ${pages + 2}`);
    const big = 'x'.repeat(4096);

    const failure = await db
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 50; i++)
          await trx.insertInto('t').values({ v: big }).execute();
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect((failure as { code?: string }).code).toBe('SQLITE_FULL');
    expect(databaseUnavailable(failure)).toBe(true);
    // The transaction was rolled back whole, and the connection is usable.
    expect(raw.inTransaction).toBe(false);
    expect(
      await db
        .selectFrom('t')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    ).toEqual({ n: 0 });

    raw.pragma('max_page_count = 100000');
    await db
      .transaction()
      .execute((trx) => trx.insertInto('t').values({ v: big }).execute());
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    await db.destroy();
  });

  it('knows PostgreSQL going away from a fault of the request', () => {
    expect(
      databaseUnavailable(Object.assign(new Error('x'), { code: '57P01' })),
    ).toBe(true);
    expect(
      databaseUnavailable(new Error('Connection terminated unexpectedly')),
    ).toBe(true);
    expect(
      databaseUnavailable(
        Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(
      databaseUnavailable(Object.assign(new Error('x'), { code: '23505' })),
    ).toBe(false);
    expect(databaseUnavailable(new Error('boom'))).toBe(false);
  });
});
