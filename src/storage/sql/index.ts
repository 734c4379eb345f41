import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.js';
import type { Storage } from '../types.js';
import { migrationProvider } from './migrations/index.js';
import { SqlUserRepo } from './users.js';
import { SqlAppRepo } from './apps.js';
import { SqlAuthCodeRepo, SqlDeviceCodeRepo, SqlEmailCodeRepo } from './codes.js';
import { SqlAuditRepo, SqlRevocationRepo } from './records.js';

export interface SqlStorageOptions {
  /** PostgreSQL schema to use (created when missing); tests give each run its own. */
  pgSchema?: string;
  /** PostgreSQL pool size. */
  pgPoolMax?: number;
}

async function sqliteDialect(url: string): Promise<SqliteDialect> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new BetterSqlite3(path);
  // WAL lets readers run beside the writer; NORMAL keeps every commit across a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return new SqliteDialect({ database: db });
}

async function postgresDialect(url: string, opts: SqlStorageOptions): Promise<PostgresDialect> {
  const pg = await import('pg');
  // int8 columns hold millisecond times and ids, all far below 2^53.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema) {
    const admin = new pg.default.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.default.Pool({
    connectionString: url,
    max: opts.pgPoolMax ?? 10,
    ...(schema && { options: `-c search_path=${schema}` }),
  });
  return new PostgresDialect({ pool });
}

export async function createSqlStorage(url: string, opts: SqlStorageOptions = {}): Promise<Storage> {
  const kind = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  const dialect = kind === 'sqlite' ? await sqliteDialect(url) : await postgresDialect(url, opts);
  const db = new Kysely<Database>({ dialect });
  return {
    kind,
    users: new SqlUserRepo(db),
    revocations: new SqlRevocationRepo(db),
    apps: new SqlAppRepo(db),
    codes: new SqlAuthCodeRepo(db),
    devices: new SqlDeviceCodeRepo(db),
    emailCodes: new SqlEmailCodeRepo(db),
    audit: new SqlAuditRepo(db),
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await db.destroy();
    },
  };
}
