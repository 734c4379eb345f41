// `node bench/soak.mjs [--minutes 15] [--warmup 2] [--db sqlite|postgres]`: `me` at half the
// measured capacity for a long while. Memory and open file descriptors must stay flat (the
// last minute within 10 % of the first after the warm-up) and the p99 of `me`, taken each minute, steady (the last minute's
// within 1.5 × the first's). Opt-in: not part of `npm run bench`.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bearer, load } from './lib/load.mjs';
import { freePort, startProcess } from './lib/proc.mjs';
import { PASSWORD, usernameOf } from './lib/seed.mjs';
import { ensureBuilt, prepareDatabase, serviceEnv } from './lib/setup.mjs';

const { values: opt } = parseArgs({
  options: {
    minutes: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    db: { type: 'string', default: 'sqlite' },
  },
});
const minutes = Number(opt.minutes);
const warmupMinutes = Number(opt.warmup);
const log = (line) => console.log(line);
const fds = (pid) => readdirSync(`/proc/${pid}/fd`).length;

await ensureBuilt();
const tmp = mkdtempSync(join(tmpdir(), 'ac-soak-'));
const secret = randomBytes(32).toString('base64url');
const { url: dbUrl, drop } = await prepareDatabase({
  db: opt.db,
  tmp,
  name: 'soak',
  users: 1000,
  secret,
  log,
});
const service = await startProcess({
  name: 'service',
  args: ['bin/account-center.js', 'serve'],
  env: { ...serviceEnv(dbUrl, secret), LOG_LEVEL: 'warn' },
  port: await freePort(),
});
try {
  const url = `${service.url}/api/v1/auth/me`;
  const login = await fetch(`${service.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: usernameOf(1), password: PASSWORD }),
  });
  const headers = bearer((await login.json()).access_token);
  const capacity = await load({ url, duration: 5, requests: [{ headers }] });
  const rate = Math.max(1, Math.floor(capacity.rps / 2));
  log(
    `capacity of me: ${capacity.rps} rps; soaking at ${rate} rps for ${minutes} min`,
  );

  const samples = [];
  const run = autocannon({
    url,
    connections: 20,
    overallRate: rate,
    duration: minutes * 60,
    requests: [{ headers }],
  });
  let window = [];
  run.on('response', (_client, status, _bytes, ms) => {
    window.push(status === 200 ? ms : Number.POSITIVE_INFINITY);
  });
  const sampler = setInterval(() => {
    const sorted = window.sort((a, b) => a - b);
    window = [];
    const p99 = sorted[Math.ceil(sorted.length * 0.99) - 1] ?? 0;
    const s = {
      minute: samples.length + 1,
      rssMb: service.rssMb(),
      fds: fds(service.pid),
      p99,
      n: sorted.length,
    };
    samples.push(s);
    log(
      `minute ${s.minute}: ${s.n} requests, p99 ${p99.toFixed(1)} ms, RSS ${s.rssMb} MB, ${s.fds} fds`,
    );
  }, 60_000);
  await new Promise((resolve) => run.on('done', resolve));
  clearInterval(sampler);

  const steady = samples.slice(warmupMinutes);
  // Growth, not the garbage collector's sawtooth: the last minute against the first one after
  // the warm-up (RSS swings by 10 % or more between two collections at this rate).
  const flat = (key) => steady.at(-1)[key] <= 1.1 * steady[0][key];
  const ok =
    steady.length >= 2 &&
    flat('rssMb') &&
    flat('fds') &&
    steady.at(-1).p99 <= 1.5 * steady[0].p99 &&
    steady.every((s) => Number.isFinite(s.p99));
  log(ok ? 'soak: PASS' : 'soak: FAIL');
  process.exitCode = ok ? 0 : 1;
} finally {
  await service.stop();
  await drop();
  rmSync(tmp, { recursive: true, force: true });
}
