import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';
import { call, runCommand, startServer, type RunningServer } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-backup-'));
const PG_BASE = isPostgresUrl(process.env.TEST_DATABASE_URL) ? process.env.TEST_DATABASE_URL : undefined;
const cleanup: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI against `databaseUrl`, with the server's secret and nothing else of this environment. */
const cli = (databaseUrl: string, args: string[]) => runCommand({ DATABASE_URL: databaseUrl }, args, { isolated: true, timeoutMs: 60_000 });

async function register(base: string, username: string): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/auth/register', { username, password: 'password123', email: `${username}@example.com` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

/** PostgreSQL: empties the schema, as a new database would be. */
async function emptySchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_BASE });
  await client.connect();
  try {
    await client.query(`drop schema ${schema} cascade`);
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
}

describe('backup and restore', () => {
  it('copies the database while the service writes, and restores it into an empty one', async () => {
    const fresh = PG_BASE ? await freshPostgresSchema(PG_BASE) : undefined;
    if (fresh) cleanup.push(fresh.dispose);
    const databaseUrl = fresh?.url ?? `sqlite:${join(dir, 'live.db')}`;
    let server: RunningServer | undefined = await startServer({ DATABASE_URL: databaseUrl });
    cleanup.push(() => server?.stop() ?? Promise.resolve());
    const base = server.url;
    const token = await register(base, 'kept_1');
    await register(base, 'kept_2');

    // Sign-ups keep arriving while the backup runs.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) await register(base, `during_${written++}`);
    })();
    const file = join(dir, 'account-center.backup');
    const backup = await cli(databaseUrl, ['backup', file]);
    writing = false;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    const made = JSON.parse(backup.stdout);
    expect(made).toMatchObject({ backup: file, database: PG_BASE ? 'postgres' : 'sqlite' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    if (PG_BASE) {
      expect(made.command).toMatch(/^pg_dump --format=custom --no-owner --schema=\S+ --file=BACKUP_FILE 'postgres:\/\//);
    } else {
      expect(made.users).toBeGreaterThanOrEqual(2);
      expect(made.migrations).toContain('001-initial');
    }

    const again = await cli(databaseUrl, ['backup', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('backups are never overwritten');
    const intoLive = await cli(databaseUrl, ['restore', file]);
    expect(intoLive.code).toBe(1);
    expect(intoLive.stderr.trim()).toMatch(/^account-center: the database of DATABASE_URL is not empty \(\d+ users\)/);

    expect(await server.stop()).toBe(0);
    server = undefined;
    let target = `sqlite:${join(dir, 'restored.db')}`;
    if (fresh) {
      await emptySchema(fresh.schema);
      target = databaseUrl;
    } else {
      // An empty, migrated database is fine too, as a service started on it would leave it.
      expect((await cli(target, ['migrate'])).code).toBe(0);
    }
    const restored = await cli(target, ['restore', file]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).users).toBeGreaterThanOrEqual(2);

    server = await startServer({ DATABASE_URL: target });
    const login = await call(server.url, 'POST', '/api/v1/auth/login', { username: 'kept_2', password: 'password123' });
    expect(login.status).toBe(200);
    // Same JWT_SECRET: tokens issued before the backup still work after the restore.
    expect((await call(server.url, 'GET', '/api/v1/auth/me', undefined, token)).status).toBe(200);
  }, 120_000);

  it.skipIf(PG_BASE !== undefined)('refuses a file that is not a backup, and a missing one', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, but long enough to look like one maybe');
    const target = `sqlite:${join(dir, 'never.db')}`;
    const bad = await cli(target, ['restore', junk]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^account-center: .*junk\.db/);
    const missing = await cli(target, ['restore', join(dir, 'missing.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
