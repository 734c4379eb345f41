// Bulk seeding straight into the database (not through the API) and token minting.
import { createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { hash, Algorithm } from '@node-rs/argon2';

const require = createRequire(import.meta.url);
export const PASSWORD = 'bench-password-1';
const BATCH = 50_000;

export const usernameOf = (i) => `bench_${i}`;

/** One argon2id hash computed once and reused for every seeded row. */
export function passwordHash() {
  return hash(PASSWORD, {
    algorithm: Algorithm.Argon2id,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
}

function row(i, pwHash, now) {
  const username = usernameOf(i);
  const email = `${username}@bench.test`;
  return [
    username,
    username.toLowerCase(),
    email,
    email.toLowerCase(),
    username,
    pwHash,
    1,
    '["player"]',
    0,
    0,
    now,
    now,
  ];
}

const COLUMNS =
  'username, username_lower, email, email_lower, display_name, password_hash, email_verified, roles, banned, tokens_valid_after, created_at, updated_at';

/** Inserts users 1..count into an already migrated SQLite file; returns the elapsed ms. */
export async function seedSqlite(path, count) {
  const started = Date.now();
  const Database = require('better-sqlite3');
  const db = new Database(path);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const insert = db.prepare(
    `insert into users (${COLUMNS}) values (${COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  const pw = await passwordHash();
  const now = Date.now();
  const batch = db.transaction((from, to) => {
    for (let i = from; i <= to; i++) insert.run(row(i, pw, now));
  });
  for (let from = 1; from <= count; from += BATCH)
    batch(from, Math.min(count, from + BATCH - 1));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return Date.now() - started;
}

/** The same for PostgreSQL, in a given schema, with unnest() multi-row inserts. */
export async function seedPostgres(url, schema, count) {
  const started = Date.now();
  const pg = require('pg');
  const client = new pg.Client({
    connectionString: url,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    const pw = await passwordHash();
    const now = Date.now();
    for (let from = 1; from <= count; from += BATCH) {
      const cols = Array.from({ length: 12 }, () => []);
      for (let i = from; i <= Math.min(count, from + BATCH - 1); i++)
        for (const [k, v] of row(i, pw, now).entries()) cols[k].push(v);
      const types = [
        'text',
        'text',
        'text',
        'text',
        'text',
        'text',
        'int',
        'text',
        'int',
        'int8',
        'int8',
        'int8',
      ];
      await client.query(
        `insert into users (${COLUMNS}) select * from unnest(${types.map((t, k) => `$${k + 1}::${t}[]`).join(', ')})`,
        cols,
      );
    }
    await client.query('analyze users');
  } finally {
    await client.end();
  }
  return Date.now() - started;
}

/** Looks up the ids of the seeded users (rows are inserted in order, so id = i holds). */
export function tokenMinter(secret) {
  // The service's format (test/api/tokens.test.ts): {"alg":"HS256","typ":"JWT"}, the claims as JSON.
  const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString(
    'base64url',
  );
  const sign = (claims) => {
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
  return (uid, app, ttl = 604800) => {
    const ms = Date.now();
    const iat = Math.floor(ms / 1000);
    // Each token in a session of its own (`sid`), like every token the service issues.
    return sign({
      sub: usernameOf(uid),
      uid,
      roles: ['player'],
      app,
      iat,
      exp: iat + ttl,
      jti: `${ms.toString(36)}.${randomBytes(16).toString('base64url')}`,
      sid: randomBytes(16).toString('base64url'),
    });
  };
}

/** `n` distinct user ids spread evenly over 1..count, so a big table is touched everywhere. */
export function spreadIds(count, n) {
  const k = Math.min(count, n);
  return Array.from({ length: k }, (_, j) => 1 + Math.floor((j * count) / k));
}
