// CPU per compiled query on the SQLite group-commit dialect: through Kysely's executor
// (`db.executeQuery`) against the dialect's own `execute` (what compileOnce uses on SQLite).
// A primary-key read and a single-row write, 50 at a time as concurrent requests would.
// Run: npm run build && node bench/compiled-query.mjs [queries]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { GroupCommitSqliteDialect } from '../dist/platform/sql/sqlite-group-commit.js';
import { cachedPrepare } from '../dist/platform/sql/statement-cache.js';

const queries = Number(process.argv[2] ?? 60_000);
const dir = mkdtempSync(join(tmpdir(), 'ac-compiled-query-'));
const raw = new BetterSqlite3(join(dir, 'bench.db'));
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
const dialect = new GroupCommitSqliteDialect(raw, cachedPrepare(raw));
const db = new Kysely({ dialect });
await sql`create table codes (code_hash text primary key, user_id integer not null, used_at integer)`.execute(db);
const ROWS = 10_000;
raw.transaction(() => {
  const insert = raw.prepare('insert into codes (code_hash, user_id) values (?, ?)');
  for (let i = 0; i < ROWS; i++) insert.run(`code-${i}`, i);
})();

const read = db.selectFrom('codes').selectAll().where('code_hash', '=', '').compile();
const write = db.updateTable('codes').set({ used_at: 0 }).where('code_hash', '=', '').compile();
const viaKysely = (q) => db.executeQuery(q);
const direct = (q) => dialect.execute(q);

/** µs of CPU per query, 50 in flight at a time. */
async function measure(run, compiled, params) {
  const started = process.cpuUsage();
  let inFlight = [];
  for (let i = 0; i < queries; i++) {
    inFlight.push(run({ ...compiled, parameters: params(i) }));
    if (inFlight.length === 50) {
      await Promise.all(inFlight);
      inFlight = [];
    }
  }
  await Promise.all(inFlight);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / queries;
}

const readParams = (i) => [`code-${i % ROWS}`];
const writeParams = (i) => [i, `code-${i % ROWS}`];
const rows = [];
for (let round = 0; round < 3; round++) {
  // Alternated, so a drift of the machine falls on both.
  rows.push({
    round: round + 1,
    'read, Kysely µs': +(await measure(viaKysely, read, readParams)).toFixed(2),
    'read, direct µs': +(await measure(direct, read, readParams)).toFixed(2),
    'write, Kysely µs': +(await measure(viaKysely, write, writeParams)).toFixed(2),
    'write, direct µs': +(await measure(direct, write, writeParams)).toFixed(2),
  });
}
console.table(rows);
await db.destroy();
rmSync(dir, { recursive: true, force: true });
