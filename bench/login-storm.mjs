// `node bench/login-storm.mjs [--users N] [--db sqlite|postgres]`: a game server restarts and
// N players (2,000) sign in at once. The sign-ins must complete at no less than 0.85 × the raw
// argon2id rate of the same parameters on the same number of threads, and `me` stays under
// 50 ms at p99 meanwhile. Opt-in: not part of `npm run bench`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Algorithm, verify } from '@node-rs/argon2';
import { freePort, startProcess } from './lib/proc.mjs';
import { PASSWORD, passwordHash, usernameOf } from './lib/seed.mjs';
import { ensureBuilt, prepareDatabase, serviceEnv } from './lib/setup.mjs';

const { values: opt } = parseArgs({
  options: {
    users: { type: 'string', default: '2000' },
    db: { type: 'string', default: 'sqlite' },
  },
});
const USERS = Number(opt.users);
// The service hashes on this many threads (src/platform/crypto/passwords.ts).
const THREADS = Math.max(1, availableParallelism() - 1);
const log = (line) => console.log(line);

/** Verifications a second of the service's argon2id parameters, THREADS at a time. */
async function rawRate(count) {
  const stored = await passwordHash();
  const options = { algorithm: Algorithm.Argon2id };
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: THREADS }, async () => {
      while (left-- > 0) await verify(stored, PASSWORD, options);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function post(url, body, token) {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

await ensureBuilt();
const tmp = mkdtempSync(join(tmpdir(), 'ac-storm-'));
const secret = randomBytes(32).toString('base64url');
const { url: dbUrl, drop } = await prepareDatabase({
  db: opt.db,
  tmp,
  name: 'storm',
  users: USERS + 1,
  secret,
  log,
});
const port = await freePort();
const service = await startProcess({
  name: 'service',
  args: ['bin/account-center.js', 'serve'],
  env: { ...serviceEnv(dbUrl, secret), LOG_LEVEL: 'warn' },
  port,
});
try {
  const api = `${service.url}/api/v1/auth`;
  const watcher = await post(`${api}/login`, {
    username: usernameOf(USERS + 1),
    password: PASSWORD,
  });
  const token = watcher.body.access_token;

  const raw = await rawRate(Math.min(USERS, 400));
  log(
    `raw argon2id: ${raw.toFixed(1)} verifications/s on ${THREADS} thread(s)`,
  );

  const meMs = [];
  let storming = true;
  const watching = (async () => {
    while (storming) {
      const t0 = performance.now();
      const r = await post(`${api}/me`, undefined, token);
      if (r.status !== 200) throw new Error(`me answered ${r.status}`);
      meMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: USERS }, (_, i) =>
      post(`${api}/login`, { username: usernameOf(i + 1), password: PASSWORD }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  storming = false;
  await watching;

  const failed = answers.filter((a) => a.status !== 200).length;
  const rate = USERS / seconds;
  meMs.sort((a, b) => a - b);
  const p99 = percentile(meMs, 0.99);
  log(
    `${USERS} sign-ins at once: ${seconds.toFixed(1)} s, ${rate.toFixed(1)}/s = ${(rate / raw).toFixed(2)} × raw; ${failed} failed`,
  );
  log(
    `me meanwhile: ${meMs.length} requests, p50 ${percentile(meMs, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
  );
  const ok = failed === 0 && rate >= 0.85 * raw && p99 < 50;
  log(ok ? 'login storm: PASS' : 'login storm: FAIL');
  process.exitCode = ok ? 0 : 1;
} finally {
  await service.stop();
  await drop();
  rmSync(tmp, { recursive: true, force: true });
}
