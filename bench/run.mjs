// `npm run bench`: the service's hot paths against a bare-Fastify baseline, plus scale checks.
// Options: --quick, --duration S, --rounds N, --targets a,b, --db sqlite|postgres, --users N,
// --big-users N, --big (10,000,000 users in the scale check), --no-scale, --no-saturation, --no-workers,
// --connections N, --cpu-prof, --json FILE,
// --no-oidc, --oidc-only, --oidc-alg RS256|ES256|EdDSA (or a comma list), --oidc-targets userinfo,introspection,
// token_code,refresh for the comparison with oidc-provider.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startProcess } from './lib/proc.mjs';
import { compareOidc, oidcChecks, printOidc } from './lib/oidc-compare.mjs';
import {
  OIDC_CLIENT_ID,
  consentAll,
  createOidcClient,
  exchangeCodes,
} from './lib/oidc-ours.mjs';
import { basicAuth } from './lib/oidc-targets.mjs';
import { addRun, checks, printTable, summarise } from './lib/report.mjs';
import { saturation, scale, workers } from './lib/extras.mjs';
import { runner } from './lib/runner.mjs';
import { tokenMinter } from './lib/seed.mjs';
import {
  createBenchApp,
  ensureBuilt,
  prepareDatabase,
  serviceEnv,
} from './lib/setup.mjs';
import { NEEDS_APP } from './lib/targets.mjs';
import { measureStartUp, printStartUp, startUpChecks } from './start-up.mjs';

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    targets: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    users: { type: 'string' },
    'big-users': { type: 'string' },
    big: { type: 'boolean' },
    'no-scale': { type: 'boolean' },
    'no-saturation': { type: 'boolean' },
    'no-workers': { type: 'boolean' },
    connections: { type: 'string' },
    'cpu-prof': { type: 'boolean' },
    json: { type: 'string' },
    'no-oidc': { type: 'boolean' },
    'oidc-only': { type: 'boolean' },
    'oidc-alg': { type: 'string', default: 'RS256' },
    'oidc-targets': { type: 'string' },
  },
});
const quick = opt.quick ?? false;
const duration = Number(opt.duration ?? (quick ? 3 : 10));
const rounds = Number(opt.rounds ?? (quick ? 1 : 2));
const connections = Number(opt.connections ?? 50);
const warmup = quick ? 1 : 3;
const users = Number(opt.users ?? 1000);
const bigUsers = Number(
  opt['big-users'] ?? (opt.big ? 10_000_000 : quick ? 100_000 : 1_000_000),
);
const db = opt.db === 'postgres' ? 'postgres' : 'sqlite';
const ORDER = [
  'me',
  'userinfo',
  'refresh',
  'client_info',
  'cors_preflight',
  'authorize',
  'exchange',
  'login',
];
let targets = opt.targets ? opt.targets.split(',') : ORDER;
if (targets.includes('exchange') && !targets.includes('authorize'))
  targets.push('authorize');
targets = ORDER.filter((t) => targets.includes(t));

const log = (m) => console.log(`[bench] ${m}`);
const tmp = mkdtempSync(join(tmpdir(), 'account-center-bench-'));
const secret = randomBytes(48).toString('base64url');
const mint = tokenMinter(secret);
const stoppers = [];

// BENCH_NODE_FLAGS: V8 or Node flags for the service processes only (e.g. to try a GC setting).
const extraNodeFlags = (process.env.BENCH_NODE_FLAGS ?? '')
  .split(' ')
  .filter(Boolean);
const profFlags = (name) => [
  ...extraNodeFlags,
  ...(opt['cpu-prof']
    ? ['--cpu-prof', '--cpu-prof-dir', join(tmp, `prof-${name}`)]
    : []),
];

async function startService(name, url, extraArgs = [], env = {}) {
  const p = await startProcess({
    name,
    args: ['bin/account-center.js', 'serve', ...extraArgs],
    env: { ...serviceEnv(url, secret), ...env },
    port: await freePort(),
    nodeFlags: profFlags(name),
  });
  stoppers.push(() => p.stop());
  return p;
}

const { context, runTarget, measured, baselineRun } = runner({
  duration,
  connections,
  cpuProf: opt['cpu-prof'],
  log,
  mint,
});

async function main() {
  ensureBuilt(log);
  const oidcAlgs = opt['no-oidc']
    ? []
    : opt['oidc-alg'].split(',').map((a) => a.trim());
  for (const a of oidcAlgs)
    if (!['RS256', 'ES256', 'EdDSA'].includes(a))
      throw new Error(`--oidc-alg: RS256, ES256 or EdDSA, not ${a}`);
  const out = opt['oidc-only']
    ? { db: 'sqlite', list: [], json: {} }
    : await serviceTargets();
  const oidc = [];
  for (const alg of oidcAlgs) {
    const result = await compareOidc(alg, {
      measured,
      startService,
      log,
      tmp,
      secret,
      users,
      duration,
      rounds,
      warmup,
      connections,
      nodeFlags: profFlags,
      targets: opt['oidc-targets']?.split(','),
    });
    printOidc(result);
    oidc.push(result);
    out.list.push(...oidcChecks(result));
  }
  if (!opt['oidc-only']) {
    const startUp = await measureStartUp(quick ? 3 : 5);
    printStartUp(startUp);
    out.list.push(...startUpChecks(startUp));
    out.json.startUp = startUp;
  }
  console.log('\nChecks');
  console.table(out.list);
  if (opt.json)
    writeFileSync(
      opt.json,
      JSON.stringify(
        {
          ...out.json,
          users,
          duration,
          rounds,
          connections,
          oidc,
          checks: out.list,
        },
        null,
        2,
      ),
    );
  if (opt['cpu-prof'])
    log(`CPU profiles are written to ${tmp}/prof-* when the services stop`);
}

/** The service's own targets against the baseline, and the scale, saturation and worker checks. */
async function serviceTargets() {
  log(
    `${db}, ${users} users, ${connections} connections, ${duration} s × ${rounds} round(s), targets: ${targets.join(', ')}`,
  );
  const mainDb = await prepareDatabase({
    db,
    tmp,
    name: 'main',
    users,
    secret,
    log,
  });
  stoppers.push(mainDb.drop);
  const ctx = context(users);
  ctx.app = await createBenchApp(mainDb.url, secret);
  if (!ctx.app) {
    log(
      'the CLI has no `app create` yet: skipping ' +
        targets.filter((t) => NEEDS_APP.has(t)).join(', '),
    );
    targets = targets.filter((t) => !NEEDS_APP.has(t));
  }
  const oidcClient = targets.includes('userinfo')
    ? await createOidcClient(mainDb.url, secret, 'RS256')
    : undefined;
  const service = await startService('service', mainDb.url);
  if (oidcClient) {
    // OIDC access tokens of the same 1,000 people, got the real way (consent, code, token endpoint).
    const cookies = ctx.userIds.map(
      (id) => `ac_session=${mint(id, 'account-center')}`,
    );
    const codes = await consentAll(service, OIDC_CLIENT_ID, cookies);
    ctx.oidcAccess = (
      await exchangeCodes(
        service,
        basicAuth(OIDC_CLIENT_ID, oidcClient.clientSecret),
        codes,
      )
    ).access;
  }
  const meRes = await fetch(`${service.url}/api/v1/auth/me`, {
    headers: { authorization: `Bearer ${ctx.tokens[0]}` },
  });
  const meBody = await meRes.text();
  if (meRes.status !== 200)
    throw new Error(`me answered ${meRes.status}: ${meBody}`);
  const baseline = await startProcess({
    name: 'baseline',
    args: ['bench/baseline.mjs'],
    env: { BASELINE_BODY: meBody },
    port: await freePort(),
  });
  stoppers.push(() => baseline.stop());
  log(
    `service pid ${service.pid} (${service.rssMb()} MB), baseline pid ${baseline.pid}; me answer ${meBody.length} bytes`,
  );

  log('warm-up');
  await baselineRun(baseline, warmup);
  for (const t of targets) await runTarget(service, t, ctx, warmup);

  const runs = {};
  for (let r = 1; r <= rounds; r++) {
    log(`round ${r}/${rounds}`);
    let before = await baselineRun(baseline);
    for (const t of targets) {
      const res = await runTarget(service, t, ctx);
      const after = await baselineRun(baseline);
      res.base = {
        rps: (before.rps + after.rps) / 2,
        p99: (before.p99 + after.p99) / 2,
        cpuUs: (before.cpuUs + after.cpuUs) / 2,
      };
      addRun(runs, t, res);
      log(
        `  ${t}: ${res.rps} rps, p99 ${res.p99} ms, ${res.errors} errors, ${res.cpuUs} µs CPU/req (baseline ${Math.round(res.base.rps)} rps, ${res.base.cpuUs} µs)`,
      );
      before = after;
    }
  }
  const summary = summarise(runs);
  printTable(`Targets vs baseline (${db}, ${users} users, 1 worker)`, summary);
  const extra = {};

  const bench = { service, ctx, mainDb, runTarget, startService, context, log };
  Object.assign(bench, { db, tmp, secret, stoppers, users, bigUsers });
  Object.assign(bench, { duration, rounds, warmup, targets });
  const onMe = targets.includes('me');
  if (!opt['no-saturation'] && onMe) extra.saturation = await saturation(bench);
  if (!opt['no-scale'] && onMe) extra.scale = await scale(bench);
  if (!opt['no-workers'] && onMe) {
    const w = await workers(bench);
    if (w) extra.workers = w;
  }

  // Stopped now, so they sit idle in no later comparison.
  for (const stop of stoppers.splice(0).reverse())
    await stop().catch(() => undefined);
  return {
    list: checks(db, summary, extra),
    json: { db, bigUsers, summary, extra },
  };
}

try {
  await main();
} finally {
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  if (!opt['cpu-prof']) rmSync(tmp, { recursive: true, force: true });
}
