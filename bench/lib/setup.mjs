// Build check, databases, the service's environment and the bench application.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT, runNode } from './proc.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';
import { REDIRECT_URI } from './targets.mjs';

export const PG_URL =
  process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs,
    );
  }
  return newest;
}

/** Rebuilds dist/ when any source is newer than the compiled CLI. */
export function ensureBuilt(log) {
  const cli = join(ROOT, 'dist/server/account-center.mjs');
  if (
    existsSync(cli) &&
    statSync(cli).mtimeMs >= newestMtime(join(ROOT, 'src'))
  )
    return;
  log('dist/ is stale: npm run build');
  const r = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0 && !existsSync(cli)) throw new Error('build failed');
  if (r.status !== 0)
    log('build reported errors; running the dist/ it emitted');
}

/** True when `serve --workers N` really forks (the compiled CLI uses node:cluster). */
export function clusterSupported() {
  const cluster = join(ROOT, 'dist', 'app', 'cluster.js');
  return (
    existsSync(cluster) && /node:cluster/.test(readFileSync(cluster, 'utf8'))
  );
}

export function serviceEnv(databaseUrl, secret) {
  return {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: secret,
    IP_RATE_LIMITS: 'off',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    NODE_ENV: 'production',
    AUTH_CODE_TTL: '600',
    SMTP_URL: '',
    REDIS_URL: '',
  };
}

/**
 * A migrated, seeded database. `db` is `sqlite` or `postgres`; returns its DATABASE_URL and
 * a drop() that removes a PostgreSQL schema afterwards.
 */
export async function prepareDatabase({ db, tmp, name, users, secret, log }) {
  let url;
  let drop = async () => {};
  if (db === 'postgres') {
    const schema = `bench_${process.pid}_${name}`;
    url = `${PG_URL}?schema=${schema}`;
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
    await drop();
    await runNode(
      ['bin/account-center.js', 'migrate'],
      serviceEnv(url, secret),
    );
    const ms = await seedPostgres(PG_URL, schema, users);
    log(
      `seeded ${users.toLocaleString()} users into PostgreSQL schema ${schema} in ${(ms / 1000).toFixed(1)} s`,
    );
  } else {
    const path = join(tmp, `${name}.db`);
    url = `sqlite:${path}`;
    await runNode(
      ['bin/account-center.js', 'migrate'],
      serviceEnv(url, secret),
    );
    const ms = await seedSqlite(path, users);
    log(
      `seeded ${users.toLocaleString()} users into ${path} in ${(ms / 1000).toFixed(1)} s`,
    );
  }
  return { url, drop };
}

/** Registers the confidential bench app through the CLI; undefined when the CLI has no `app`. */
export async function createBenchApp(url, secret) {
  try {
    const out = await runNode(
      [
        'bin/account-center.js',
        'app',
        'create',
        '--owner',
        'bench_1',
        '--name',
        'Bench SPA',
        '--redirect-uri',
        REDIRECT_URI,
        '--client-id',
        'bench-app',
      ],
      serviceEnv(url, secret),
    );
    const app = JSON.parse(out.slice(out.indexOf('{')));
    return { client_id: app.client_id, client_secret: app.client_secret };
  } catch {
    return undefined;
  }
}
