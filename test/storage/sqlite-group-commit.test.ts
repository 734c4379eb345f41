import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type Generated, Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect } from '../../src/platform/sql/sqlite-group-commit.js';
import { cachedPrepare } from '../../src/platform/sql/statement-cache.js';
import { compileOnce } from '../../src/platform/sql/compiled.js';
import { isPostgresUrl } from '../helpers/db.js';

/**
 * SQLite's group commit: the writes of one event-loop turn share a transaction. What callers
 * rely on: a write has settled only once another connection can read it; a failing statement
 * costs only itself; a failed commit fails every write in it; Kysely transactions still run
 * alone; parallel conditional UPDATEs still count exactly.
 */
interface Db {
  items: { id: Generated<number>; name: string; tries: Generated<number> };
  children: { id: Generated<number>; parent: number };
}

let dir: string;
let file: string;
let db: Kysely<Db>;
let dialect: GroupCommitSqliteDialect;
let other: BetterSqlite3.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ac-group-commit-'));
  file = join(dir, 'test.db');
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  dialect = new GroupCommitSqliteDialect(raw, cachedPrepare(raw));
  db = new Kysely<Db>({ dialect });
  await sql`create table items (id integer primary key, name text unique not null, tries integer not null default 0)`.execute(db);
  // Checked at COMMIT, so a bad row makes the batch's commit itself fail.
  await sql`create table children (id integer primary key, parent integer not null references items(id) deferrable initially deferred)`.execute(db);
  other = new BetterSqlite3(file, { readonly: true });
});
afterEach(async () => {
  other.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const seenByOther = () => (other.prepare('select name from items order by id').all() as Array<{ name: string }>).map((r) => r.name);

describe.skipIf(isPostgresUrl(process.env.TEST_DATABASE_URL))('SQLite group commit', () => {
  it('a write has settled only when another connection reads it, and one turn\'s writes commit together', async () => {
    const writes = ['a', 'b', 'c'].map((name) => db.insertInto('items').values({ name }).execute());
    // Ran at once, in order, inside one open transaction: this connection sees them, another does not yet.
    expect((await db.selectFrom('items').select('name').execute()).map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(seenByOther()).toEqual([]);
    await Promise.all(writes);
    expect(seenByOther()).toEqual(['a', 'b', 'c']);
  });

  it('a failing statement costs only itself; the rest of its batch commits', async () => {
    await db.insertInto('items').values({ name: 'taken' }).execute();
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'x' }).execute(),
      db.insertInto('items').values({ name: 'taken' }).execute(),
      db.insertInto('items').values({ name: 'y' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(seenByOther()).toEqual(['taken', 'x', 'y']);
  });

  it('a commit that fails fails every write of its batch, and none of them is kept', async () => {
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'lost' }).execute(),
      db.insertInto('children').values({ parent: 999 }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(seenByOther()).toEqual([]);
    // The next turn starts afresh.
    await db.insertInto('items').values({ name: 'next' }).execute();
    expect(seenByOther()).toEqual(['next']);
  });

  it('a Kysely transaction commits the open batch first, and runs alone', async () => {
    const before = db.insertInto('items').values({ name: 'before' }).execute();
    const tx = db.transaction().execute(async (trx) => {
      expect(seenByOther()).toEqual(['before']);
      await trx.insertInto('items').values({ name: 'in-tx' }).execute();
      // A write started now waits for the transaction: it is not part of it.
      const during = db.insertInto('items').values({ name: 'during' }).execute();
      await new Promise((resolve) => setImmediate(resolve));
      expect((await trx.selectFrom('items').select('name').execute()).map((r) => r.name)).toEqual(['before', 'in-tx']);
      throw Object.assign(new Error('roll back'), { during });
    }).catch(async (err: Error & { during: Promise<unknown> }) => {
      await err.during;
    });
    await before;
    await tx;
    expect(seenByOther()).toEqual(['before', 'during']);
  });

  it('compiled queries join the turn\'s batch and wait for a Kysely transaction', async () => {
    const insert = compileOnce(db, db.insertInto('items').values({ name: '' }));
    const names = compileOnce(db, db.selectFrom('items').select('name').orderBy('id'));
    const first = insert('first');
    expect((await names()).rows.map((r) => r.name)).toEqual(['first']);
    expect(seenByOther()).toEqual([]);
    await first;
    expect(seenByOther()).toEqual(['first']);

    const { during } = await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'in-tx' }).execute();
      // Not part of the transaction: it runs once the transaction has ended.
      const started = insert('during');
      await new Promise((resolve) => setImmediate(resolve));
      expect((await trx.selectFrom('items').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual(['first', 'in-tx']);
      return { during: started };
    });
    await during;
    expect(seenByOther()).toEqual(['first', 'in-tx', 'during']);
  });

  it('50 parallel conditional UPDATEs count exactly up to the limit', async () => {
    await db.insertInto('items').values({ name: 'limited' }).execute();
    const tries = await Promise.all(Array.from({ length: 50 }, () => db.updateTable('items').set((eb) => ({ tries: eb('tries', '+', 1) }))
      .where('name', '=', 'limited').where('tries', '<', 5).returning('tries').executeTakeFirst()));
    expect(tries.filter((t) => t !== undefined).map((t) => t!.tries).sort()).toEqual([1, 2, 3, 4, 5]);
    expect((other.prepare('select tries from items').get() as { tries: number }).tries).toBe(5);
  });

  it('leaves the log to SQLite\'s own checkpoints: it stays bounded, and closing folds it in and removes it', async () => {
    const path = join(dir, 'log.db');
    const raw = new BetterSqlite3(path);
    raw.pragma('journal_mode = WAL');
    const own = new Kysely<{ blobs: { id: Generated<number>; body: Buffer } }>({ dialect: new GroupCommitSqliteDialect(raw, cachedPrepare(raw)) });
    await sql`create table blobs (id integer primary key, body blob not null)`.execute(own);
    // 3,000 page-sized rows in batches of 50: without checkpoints the log would pass 12 MB.
    for (let batch = 0; batch < 60; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => own.insertInto('blobs').values({ body: Buffer.alloc(4096, (batch + i) % 251) }).execute()));
    }
    expect(statSync(`${path}-wal`).size).toBeLessThan(8 * 1024 * 1024);
    await own.destroy();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new BetterSqlite3(path, { readonly: true });
    expect(reopened.prepare('select count(*) as n from blobs').get()).toEqual({ n: 3000 });
    reopened.close();
  });
});
