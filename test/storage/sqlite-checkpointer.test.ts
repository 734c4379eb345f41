import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../../src/platform/sql/sqlite-checkpointer.js';
import { isPostgresUrl } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The checkpointing thread: it copies committed pages into the database file while the writer
 * goes on, it does not keep the log from starting over, and stopping it closes its connection.
 */
const PAGE = 4096;
let dir: string;
let file: string;
let writer: BetterSqlite3.Database;
let checkpointer: WalCheckpointer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-checkpointer-'));
  file = join(dir, 'test.db');
  writer = new BetterSqlite3(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.exec('create table blobs (id integer primary key, body blob not null)');
});
afterEach(async () => {
  await checkpointer?.stop();
  checkpointer = undefined;
  if (writer.open) writer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A checkpointer told of a first write, as the group-commit driver tells it. */
function started(everyMs: number, idleMs?: number): WalCheckpointer {
  const c = new WalCheckpointer(file, everyMs, idleMs);
  c.wrote();
  return c;
}

/** `count` commits of one page-sized row each. */
function write(count: number): void {
  const insert = writer.prepare('insert into blobs (body) values (?)');
  for (let i = 0; i < count; i++) insert.run(Buffer.alloc(PAGE, i % 251));
}

describe.skipIf(isPostgresUrl(process.env.TEST_DATABASE_URL))('SQLite checkpointing thread', () => {
  it('copies committed pages into the database file although the writer never checkpoints', async () => {
    writer.pragma('wal_autocheckpoint = 0');
    const before = statSync(file).size;
    checkpointer = started(5);
    write(500);
    await waitFor('the pages copied into the database file', 10_000, () => statSync(file).size >= before + 500 * PAGE);
    expect(writer.prepare('select count(*) as n from blobs').get()).toEqual({ n: 500 });
  });

  it('once it has caught up (and waits longer between looks), it copies later writes too', async () => {
    writer.pragma('wal_autocheckpoint = 0');
    const before = statSync(file).size;
    checkpointer = started(5, 40);
    write(100);
    await waitFor('the first writes copied', 10_000, () => statSync(file).size >= before + 100 * PAGE);
    const copied = statSync(file).size;
    write(100);
    await waitFor('the later writes copied', 10_000, () => statSync(file).size >= copied + 100 * PAGE);
  });

  it('leaves the log free to start over at the writer\'s own checkpoints', async () => {
    writer.pragma('wal_autocheckpoint = 100');
    checkpointer = started(5);
    // Each row is at least two frames (its page and the table's); without restarts the log would pass 8 MB.
    write(1000);
    expect(statSync(`${file}-wal`).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('stop() closes its connection: the writer, closing last, folds the log in and removes it', async () => {
    checkpointer = started(5);
    write(50);
    await checkpointer.stop();
    checkpointer = undefined;
    writer.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new BetterSqlite3(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from blobs').get()).toEqual({ n: 50 });
    reopened.close();
  });
});
