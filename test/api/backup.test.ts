import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { isPostgresUrl } from '../helpers/db.js';
import { call, startServer, type RunningServer } from '../helpers/server.js';

const ws = cliWorkspace('ac-backup-');
const dir = ws.dir;
const PG_BASE = isPostgresUrl(process.env.TEST_DATABASE_URL)
  ? process.env.TEST_DATABASE_URL
  : undefined;
const cleanup: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await ws.dispose();
});

async function register(base: string, username: string): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/auth/register', {
    username,
    password: 'password123',
    email: `${username}@example.com`,
  });
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
    const databaseUrl = await ws.freshDatabase('live');
    let server: RunningServer | undefined = await startServer({
      DATABASE_URL: databaseUrl,
    });
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
    const backup = await ws.cli(databaseUrl, ['backup', file]);
    writing = false;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    const made = JSON.parse(backup.stdout);
    expect(made).toMatchObject({
      backup: file,
      database: PG_BASE ? 'postgres' : 'sqlite',
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    if (PG_BASE) {
      expect(made.command).toMatch(
        /^pg_dump --format=custom --no-owner --schema=\S+ --file=BACKUP_FILE 'postgres:\/\//,
      );
    } else {
      expect(made.users).toBeGreaterThanOrEqual(2);
      expect(made.migrations).toContain('001-initial');
    }

    const again = await ws.cli(databaseUrl, ['backup', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('backups are never overwritten');
    const intoLive = await ws.cli(databaseUrl, ['restore', file]);
    expect(intoLive.code).toBe(1);
    expect(intoLive.stderr.trim()).toMatch(
      /^account-center: the database of DATABASE_URL is not empty \(\d+ users\)/,
    );

    expect(await server.stop()).toBe(0);
    server = undefined;
    let target = `sqlite:${join(dir, 'restored.db')}`;
    if (PG_BASE) {
      await emptySchema(new URL(databaseUrl).searchParams.get('schema')!);
      target = databaseUrl;
    } else {
      // An empty, migrated database is fine too, as a service started on it would leave it.
      expect((await ws.cli(target, ['migrate'])).code).toBe(0);
    }
    const restored = await ws.cli(target, ['restore', file]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).users).toBeGreaterThanOrEqual(2);

    server = await startServer({ DATABASE_URL: target });
    const login = await call(server.url, 'POST', '/api/v1/auth/login', {
      username: 'kept_2',
      password: 'password123',
    });
    expect(login.status).toBe(200);
    // Same JWT_SECRET: tokens issued before the backup still work after the restore.
    expect(
      (await call(server.url, 'GET', '/api/v1/auth/me', undefined, token))
        .status,
    ).toBe(200);
  }, 120_000);

  it.skipIf(PG_BASE !== undefined)(
    'refuses a file that is not a backup, and a missing one',
    async () => {
      const junk = join(dir, 'junk.db');
      writeFileSync(
        junk,
        'not a database at all, but long enough to look like one maybe',
      );
      const target = `sqlite:${join(dir, 'never.db')}`;
      const bad = await ws.cli(target, ['restore', junk]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^account-center: .*junk\.db/);
      const missing = await ws.cli(target, [
        'restore',
        join(dir, 'missing.db'),
      ]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no such file');
    },
  );
});
