import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshPostgresSchema } from './db.js';
import { TEST_REDIS_URL } from './redis.js';
import { startServer } from './server.js';
import { SmtpSink } from './smtp.js';

/**
 * The deployments the process-level limit tests run against: `serve --workers 2` on SQLite and
 * on PostgreSQL, and two instances sharing PostgreSQL and Redis, each with its own mail sink.
 */
const LIMITS = {
  IP_RATE_LIMITS: 'on',
  LIMIT_REGISTER_IP: '10000/3600',
  LIMIT_SEND_CODE_IP: '10000/3600',
  LIMIT_LOGIN_IP: '20/900',
  LIMIT_DEVICE_START_IP: '10000/60',
};

export interface Deployment {
  /** Base URLs to spread requests over (one for a cluster, one per instance otherwise). */
  urls: string[];
  smtp: SmtpSink;
  /** The tries counted on the newest e-mail code of an address, read from the database. */
  attempts(email: string): Promise<number>;
  stop(): Promise<void>;
}

const NEWEST_CODE_ATTEMPTS =
  'select attempts from email_codes where email = $1 order by id desc limit 1';

async function sqliteAttempts(file: string, email: string): Promise<number> {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(file, { readonly: true });
  try {
    return Number(
      (
        db.prepare(NEWEST_CODE_ATTEMPTS.replace('$1', '?')).get(email) as {
          attempts: number;
        }
      ).attempts,
    );
  } finally {
    db.close();
  }
}

async function postgresAttempts(
  url: string,
  schema: string,
  email: string,
): Promise<number> {
  const client = new pg.Client({ connectionString: url.split('?')[0] });
  await client.connect();
  try {
    await client.query(`set search_path to ${schema}`);
    return Number(
      (await client.query(NEWEST_CODE_ATTEMPTS, [email])).rows[0].attempts,
    );
  } finally {
    await client.end();
  }
}

async function smtpSink(): Promise<{ smtp: SmtpSink; smtpUrl: string }> {
  const smtp = new SmtpSink();
  return { smtp, smtpUrl: await smtp.start() };
}

/** `serve --workers 2` on a fresh SQLite file. */
export async function workersOnSqlite(): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-limits-'));
  const { smtp, smtpUrl } = await smtpSink();
  const file = join(dir, 'db.sqlite');
  const server = await startServer(
    { ...LIMITS, DATABASE_URL: `sqlite:${file}`, SMTP_URL: smtpUrl },
    ['--workers', '2'],
    2,
  );
  return {
    urls: [server.url],
    smtp,
    attempts: (email) => sqliteAttempts(file, email),
    async stop() {
      await server.stop();
      await smtp.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `serve --workers 2` on a fresh PostgreSQL schema. */
export async function workersOnPostgres(pgUrl: string): Promise<Deployment> {
  const db = await freshPostgresSchema(pgUrl);
  const { smtp, smtpUrl } = await smtpSink();
  const server = await startServer(
    { ...LIMITS, DATABASE_URL: `${db.url}&pool_max=6`, SMTP_URL: smtpUrl },
    ['--workers', '2'],
    2,
  );
  return {
    urls: [server.url],
    smtp,
    attempts: (email) => postgresAttempts(pgUrl, db.schema, email),
    async stop() {
      await server.stop();
      await smtp.stop();
      await db.dispose();
    },
  };
}

/** Two instances sharing a fresh PostgreSQL schema and Redis. */
export async function instancesWithRedis(pgUrl: string): Promise<Deployment> {
  const db = await freshPostgresSchema(pgUrl);
  const { smtp, smtpUrl } = await smtpSink();
  // Counters live on in Redis between runs, and user ids restart in every fresh schema:
  // this deployment's keys get a name of their own, so every counter starts from zero.
  const env = {
    ...LIMITS,
    DATABASE_URL: `${db.url}&pool_max=6`,
    SMTP_URL: smtpUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `test:${db.schema}`,
  };
  const servers = await Promise.all([startServer(env), startServer(env)]);
  return {
    urls: servers.map((s) => s.url),
    smtp,
    attempts: (email) => postgresAttempts(pgUrl, db.schema, email),
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await smtp.stop();
      await db.dispose();
    },
  };
}
