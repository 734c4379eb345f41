import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  Kysely,
  Migrator,
  type PostgresDialect,
  type SqliteDialect,
  sql,
} from 'kysely';
import { CurrentSchemaPostgresDialect } from '../platform/sql/pg-dialect.js';
import { OneConnectionSqliteDialect } from '../platform/sql/sqlite-dialect.js';
import { narrow } from '../platform/sql/narrow.js';
import type { Database } from './database.js';
import type { Repositories, Storage } from './storage.js';
import { migrationProvider } from './migrations.js';
import { SqlUserRepo } from '../features/accounts/sql-users.js';
import { SqlRoleRepo } from '../features/accounts/sql-roles.js';
import { SqlAppRepo } from '../features/apps/sql-apps.js';
import { SqlAuthCodeRepo } from '../features/authorization/sql-auth-codes.js';
import { SqlDeviceCodeRepo } from '../features/device/sql-device-codes.js';
import { SqlEmailCodeRepo } from '../features/accounts/sql-email-codes.js';
import { SqlAuditRepo } from '../features/audit/sql-audit.js';
import { SqlRevocationRepo } from '../features/sessions/sql-revocations.js';
import { SqlConsentRepo } from '../features/oidc/sql-consents.js';
import { SqlRefreshTokenRepo } from '../features/oidc/sql-refresh-tokens.js';
import { SqlSigningKeyRepo } from '../features/oidc/sql-signing-keys.js';
import { enqueueLogoutTokens } from '../features/oidc/logout-outbox.js';
import { SqlSecondFactorRepo } from '../features/second-factor/sql-second-factors.js';
import { SqlPasskeyRepo } from '../features/second-factor/sql-passkeys.js';
import { SqlReauthGrantRepo } from '../features/reauth/sql-reauth-grants.js';
import { SqlSessionRepo } from '../features/sessions/sql-sessions.js';
import { SqlUpstreamProviderRepo } from '../features/upstream/sql-providers.js';
import { SqlUpstreamLinkRepo } from '../features/upstream/sql-links.js';
import { SqlUpstreamFlowRepo } from '../features/upstream/sql-flows.js';
import { SqlSignInHistoryRepo } from '../features/sign-in-history/sql-sign-in-history.js';
import { SqlMinecraftProfileRepo } from '../features/minecraft/sql-profiles.js';
import { SqlTextureRepo } from '../features/minecraft/sql-textures.js';
import {
  SqlMinecraftKeyRepo,
  SqlServerJoinRepo,
  SqlYggdrasilTokenRepo,
} from '../features/minecraft/sql-yggdrasil.js';
import {
  SqlCaptchaUseRepo,
  SqlInviteRepo,
} from '../features/abuse/sql-abuse.js';
import { SqlOutboxRepo } from '../features/moderation/sql-outbox.js';
import { SqlWebhookEndpointRepo } from '../features/moderation/sql-webhook-endpoints.js';
import { SqlMailOutboxRepo } from '../platform/mail/sql-mail-outbox.js';

export interface SqlStorageOptions {
  /** PostgreSQL schema to use (created when missing); tests give each run its own. */
  pgSchema?: string;
  /** PostgreSQL pool size. */
  pgPoolMax?: number;
  /** Reports connection errors of idle pooled clients. */
  onPoolError?: (err: Error) => void;
}

/**
 * Creates the data folder (0700) and the database file (0600) when missing, before SQLite
 * opens it with the process umask: the file holds password hashes and the audit trail. SQLite
 * gives its -wal and -shm files the mode of the database file.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
}

async function sqliteDialect(url: string): Promise<SqliteDialect> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') createPrivately(resolve(path));
  const db = new BetterSqlite3(path);
  // WAL lets readers run beside the writer; NORMAL keeps every commit across a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Processes of `serve --workers N` share the file and wait for each other's write lock.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // Each statement outside a transaction commits on its own; SQLite's own checkpoint copies
  // the log into the database file, and closing the connection folds in and removes the log.
  return new OneConnectionSqliteDialect({ database: db });
}

/**
 * Splits the `schema` and `pool_max` query parameters (ours, not libpq's) off a postgres:// URL.
 * PostgreSQL's own `options=-c search_path=…` is left for the driver to pass on.
 */
export function parsePostgresUrl(url: string): {
  connectionString: string;
  schema: string | undefined;
  poolMax: number | undefined;
} {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') || undefined;
  const poolRaw = parsed.searchParams.get('pool_max');
  const poolMax = poolRaw ? Number(poolRaw) : undefined;
  if (poolMax !== undefined && (!Number.isInteger(poolMax) || poolMax < 1))
    throw new Error(`invalid pool_max in DATABASE_URL: ${poolRaw}`);
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('pool_max');
  return { connectionString: parsed.toString(), schema, poolMax };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

async function postgresDialect(
  url: string,
  opts: SqlStorageOptions,
  log: (err: Error) => void,
): Promise<PostgresDialect> {
  const pg = await import('pg');
  // int8 columns hold millisecond times and ids, all far below 2^53.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const fromUrl = parsePostgresUrl(url);
  const schema = opts.pgSchema ?? fromUrl.schema;
  if (schema && !SCHEMA_NAME.test(schema))
    throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema) {
    const admin = new pg.default.Client({
      connectionString: fromUrl.connectionString,
    });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } catch (err) {
      // Several processes starting at once race on the catalogue; the schema exists either way.
      const code = (err as { code?: string }).code;
      if (code !== '23505' && code !== '42P06') throw err;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.default.Pool({
    connectionString: fromUrl.connectionString,
    max: opts.pgPoolMax ?? fromUrl.poolMax ?? 10,
    // An unanswering address (a firewall dropping packets) fails in 10 s instead of minutes.
    connectionTimeoutMillis: 10_000,
    ...(schema && { options: `-c search_path=${schema}` }),
  });
  // An idle client whose connection drops must not crash the process; the pool replaces it.
  pool.on('error', log);
  // Nor may a client that is checked out between two statements of a transaction when the
  // server goes away (it has no listener of its own then): its next statement fails, the
  // request answers 503, and the pool drops the client when it comes back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new CurrentSchemaPostgresDialect({ pool });
}

/**
 * Kysely looks for its bookkeeping tables in every schema unless told which one; pinning it
 * to the connection's current schema keeps schemas sharing one database independent.
 */
async function migrationSchema(
  db: Kysely<Database>,
  kind: Storage['kind'],
): Promise<string | undefined> {
  if (kind !== 'postgres') return undefined;
  const { rows } = await sql<{
    schema: string;
  }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema)
    throw new Error(
      'PostgreSQL has no current schema: the search_path names no existing schema',
    );
  return schema;
}

/**
 * Every repository over `db`, which may be a transaction. `atomically` runs its work in a
 * transaction of its own, or in the one `db` already is.
 */
function repositoriesOn(
  db: Kysely<Database>,
  kind: Storage['kind'],
): Repositories {
  const repositories: Repositories = {
    users: new SqlUserRepo(db, kind, (trx, userId, now) =>
      enqueueLogoutTokens(narrow(trx), { liveOfUser: userId }, now),
    ),
    roles: new SqlRoleRepo(narrow(db), kind),
    revocations: new SqlRevocationRepo(narrow(db)),
    apps: new SqlAppRepo(narrow(db), kind),
    codes: new SqlAuthCodeRepo(narrow(db)),
    devices: new SqlDeviceCodeRepo(narrow(db)),
    emailCodes: new SqlEmailCodeRepo(narrow(db)),
    audit: new SqlAuditRepo(narrow(db), kind),
    signingKeys: new SqlSigningKeyRepo(narrow(db)),
    refreshTokens: new SqlRefreshTokenRepo(narrow(db)),
    consents: new SqlConsentRepo(narrow(db)),
    secondFactors: new SqlSecondFactorRepo(narrow(db)),
    passkeys: new SqlPasskeyRepo(narrow(db)),
    sessions: new SqlSessionRepo(narrow(db), kind),
    reauthGrants: new SqlReauthGrantRepo(narrow(db)),
    upstreamProviders: new SqlUpstreamProviderRepo(narrow(db)),
    upstreamLinks: new SqlUpstreamLinkRepo(narrow(db)),
    upstreamFlows: new SqlUpstreamFlowRepo(narrow(db)),
    signInHistory: new SqlSignInHistoryRepo(narrow(db)),
    minecraft: {
      profiles: new SqlMinecraftProfileRepo(narrow(db), kind),
      textures: new SqlTextureRepo(narrow(db), kind),
      tokens: new SqlYggdrasilTokenRepo(narrow(db)),
      joins: new SqlServerJoinRepo(narrow(db)),
      key: new SqlMinecraftKeyRepo(narrow(db)),
    },
    captchaUses: new SqlCaptchaUseRepo(narrow(db)),
    invites: new SqlInviteRepo(narrow(db)),
    webhooks: new SqlWebhookEndpointRepo(narrow(db)),
    outbox: new SqlOutboxRepo(narrow(db), kind),
    mail: new SqlMailOutboxRepo(narrow(db), kind),
    atomically: (work) =>
      db.isTransaction
        ? work(repositories)
        : db.transaction().execute((trx) => work(repositoriesOn(trx, kind))),
  };
  return repositories;
}

export async function createSqlStorage(
  url: string,
  opts: SqlStorageOptions = {},
): Promise<Storage> {
  const kind = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  const dialect =
    kind === 'sqlite'
      ? await sqliteDialect(url)
      : await postgresDialect(url, opts, opts.onPoolError ?? (() => undefined));
  const db = new Kysely<Database>({ dialect });
  return {
    kind,
    ...repositoriesOn(db, kind),
    async migrate() {
      const migrationTableSchema = await migrationSchema(db, kind);
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        ...(migrationTableSchema && { migrationTableSchema }),
      });
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
