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
import { load } from './lib/load.mjs';
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
import { spreadIds, tokenMinter } from './lib/seed.mjs';
import {
  clusterSupported,
  createBenchApp,
  ensureBuilt,
  prepareDatabase,
  serviceEnv,
} from './lib/setup.mjs';
import { NEEDS_APP, TARGETS } from './lib/targets.mjs';
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

function context(count) {
  const userIds = spreadIds(count, 1000);
  return {
    userIds,
    tokens: userIds.map((id) => mint(id, 'bench-app')),
    centerTokens: userIds.slice(0, 100).map((id) => mint(id, 'account-center')),
    codes: [],
  };
}

/** One run of a target; exchange spends exactly the codes the authorize run before it issued. */
async function runTarget(
  server,
  name,
  ctx,
  seconds = duration,
  conns = connections,
) {
  if (name === 'authorize') ctx.codes = [];
  const amount = name === 'exchange' ? ctx.codes.length : undefined;
  if (name === 'exchange' && !amount)
    throw new Error('exchange: no codes were issued');
  return measured(
    server,
    {
      url: server.url,
      connections: conns,
      duration: seconds,
      amount,
      requests: TARGETS[name](ctx),
    },
    name,
  );
}

/** A load run plus the server's CPU time per request, which the machine's noise barely moves. */
async function measured(server, loadOptions, label = '') {
  const cpuBefore = server.cpuMs();
  const from = process.hrtime.bigint() / 1000n;
  const r = await load(loadOptions);
  // The run's span on the clock of the profiles, for `BENCH_WINDOW=from..to node bench/profile-summary.mjs`.
  if (opt['cpu-prof'])
    log(
      `  cpu-prof window ${server.name} ${label}: BENCH_WINDOW=${from}..${process.hrtime.bigint() / 1000n}`,
    );
  return {
    ...r,
    cpuUs: r.total
      ? Math.round(((server.cpuMs() - cpuBefore) * 1000) / r.total)
      : 0,
    rssMb: server.rssMb(),
  };
}

const baselineRun = (baseline, seconds = duration) =>
  measured(baseline, {
    url: baseline.url,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', path: '/api/v1/auth/me' }],
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

  if (!opt['no-saturation'] && targets.includes('me')) {
    log('me while logins saturate argon2');
    const idle = await runTarget(service, 'me', ctx);
    const [meLoad, loginLoad] = await Promise.all([
      runTarget(service, 'me', ctx),
      runTarget(service, 'login', ctx, duration, 16),
    ]);
    extra.saturation = {
      idleP99: idle.p99,
      meP99: meLoad.p99,
      meRps: meLoad.rps,
      loginRps: loginLoad.rps,
      errors: meLoad.errors + loginLoad.errors,
      rssMb: Math.max(idle.rssMb ?? 0, meLoad.rssMb ?? 0, loginLoad.rssMb ?? 0),
    };
    printTable(
      'me with and without a concurrent login load (16 connections)',
      summarise({
        'me idle': [idle],
        'me + logins': [meLoad],
        'logins beside me': [loginLoad],
      }),
    );
  }

  if (!opt['no-scale'] && targets.includes('me')) {
    const bigDb = await prepareDatabase({
      db,
      tmp,
      name: 'big',
      users: bigUsers,
      secret,
      log,
    });
    stoppers.push(bigDb.drop);
    const big = await startService('service-big', bigDb.url);
    const bigCtx = context(bigUsers);
    // login too: it reads the user by name through the unique index, which a big table deepens.
    const scaled = targets.includes('login') ? ['me', 'login'] : ['me'];
    for (const t of scaled) await runTarget(big, t, bigCtx, warmup);
    const runsScale = {};
    for (let r = 0; r < rounds; r++) {
      for (const t of scaled) {
        addRun(
          runsScale,
          `${t}, ${users.toLocaleString()} users`,
          await runTarget(service, t, ctx),
        );
        addRun(
          runsScale,
          `${t}, ${bigUsers.toLocaleString()} users`,
          await runTarget(big, t, bigCtx),
        );
      }
    }
    const s = summarise(runsScale);
    printTable(
      'Scale: the same targets against a small and a big user table',
      s,
    );
    extra.scale = Object.fromEntries(
      scaled.map((t) => [
        t,
        {
          small: { ...s[`${t}, ${users.toLocaleString()} users`], users },
          big: {
            ...s[`${t}, ${bigUsers.toLocaleString()} users`],
            users: bigUsers,
          },
        },
      ]),
    );
    await big.stop();
  }

  if (!opt['no-workers'] && targets.includes('me')) {
    if (!clusterSupported())
      log(
        'serve --workers is not available yet: skipping the worker comparison',
      );
    else {
      const w2 = await startService('service-w2', mainDb.url, [
        '--workers',
        '2',
      ]);
      await runTarget(w2, 'me', ctx, warmup);
      const runsW = {};
      for (let r = 0; r < rounds; r++) {
        addRun(runsW, 'me, 1 worker', await runTarget(service, 'me', ctx));
        addRun(runsW, 'me, 2 workers', await runTarget(w2, 'me', ctx));
      }
      const s = summarise(runsW);
      printTable('Workers: me with 1 and 2 workers', s);
      extra.workers = { w1: s['me, 1 worker'], w2: s['me, 2 workers'] };
    }
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
