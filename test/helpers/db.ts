import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Which database a test runs on. Default: SQLite in memory. With TEST_DATABASE_URL set to a
 * postgres:// URL, each call gets a fresh schema of its own so runs never collide; `dispose`
 * drops it.
 */
export async function testDatabaseUrl(): Promise<{
  url: string;
  schema?: string;
  dispose: () => Promise<void>;
}> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || base.startsWith('sqlite:'))
    return { url: base ?? 'sqlite::memory:', dispose: async () => undefined };
  const fresh = await freshPostgresSchema(base);
  // Small pools: many test apps run side by side on two cores against one server.
  const url = new URL(fresh.url);
  url.searchParams.set('pool_max', '4');
  return { ...fresh, url: url.toString() };
}

export const isPostgresUrl = (url: string | undefined): url is string =>
  !!url && /^postgres(ql)?:\/\//.test(url);

/** A schema named after this process plus randomness, created empty and dropped by `dispose`. */
export async function freshPostgresSchema(
  base: string,
): Promise<{ url: string; schema: string; dispose: () => Promise<void> }> {
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withClient(base, (c) => c.query(`create schema ${schema}`));
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    schema,
    dispose: () =>
      withClient(base, (c) =>
        c.query(`drop schema if exists ${schema} cascade`),
      ).then(() => undefined),
  };
}

async function withClient<T>(
  url: string,
  run: (c: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Whether a PostgreSQL server answers at `url` within a short time. */
export async function postgresReachable(
  url: string,
  timeoutMs = 2000,
): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * One database for two instances of the service: a fresh PostgreSQL schema on the postgres
 * project, otherwise a SQLite file in a temporary folder (memory is one instance's own).
 */
export async function sharedDatabase(
  prefix: string,
): Promise<{ url: string; dispose: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (isPostgresUrl(base)) return freshPostgresSchema(base);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    url: `sqlite:${join(dir, 'shared.db')}`,
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
