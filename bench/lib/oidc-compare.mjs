// "OpenID Connect vs oidc-provider": our OIDC endpoints and panva's oidc-provider, each in its
// own process on this machine, the same key type, users, client and request shapes, runs
// alternated (ours then the peer, the other way round in even rounds) so noise falls on both.
import {
  OIDC_CLIENT_ID,
  consentAll,
  createOidcClient,
  exchangeCodes,
  issueCodes,
} from './oidc-ours.mjs';
import { endpointPaths, peerMint, startPeer } from './oidc-peer.mjs';
import { OIDC_REQUESTS, OIDC_TARGETS, basicAuth } from './oidc-targets.mjs';
import { prepareDatabase } from './setup.mjs';
import { spreadIds, tokenMinter } from './seed.mjs';

/** The issue's targets: rps of ours over the peer's, in the same run. */
export const OIDC_WANTED = {
  userinfo: 4,
  introspection: 4,
  token_code: 3,
  refresh: 3,
};
export const OIDC_LABELS = {
  userinfo: 'userinfo',
  introspection: 'introspection',
  token_code: 'token, authorization_code + ID token',
  refresh: 'token, refresh_token (rotation)',
};
/** What each peer endpoint received or issued (see bench/peer-oidc-provider.mjs for why). */
export const PEER_FORMAT = {
  userinfo: 'opaque AT (its userinfo refuses JWT ATs)',
  introspection: 'opaque AT (it refuses to introspect JWTs)',
  token_code: 'issues JWT AT + ID token',
  refresh: 'issues JWT AT + ID token',
};
const REFRESH_FAMILIES = 500;

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r2 = (x) => Math.round(x * 100) / 100;

/**
 * Runs the comparison for one signing algorithm. `bench`: { measured, startService, log, tmp,
 * secret, users, duration, rounds, warmup, connections, nodeFlags(name), targets? }. Returns per target the
 * runs of both sides and their ratios.
 */
export async function compareOidc(alg, bench) {
  const { log, users, connections } = bench;
  const stops = [];
  try {
    const db = await prepareDatabase({
      db: 'sqlite',
      tmp: bench.tmp,
      name: `oidc-${alg}`,
      users,
      secret: bench.secret,
      log,
    });
    const client = await createOidcClient(db.url, bench.secret, alg);
    const ours = await bench.startService(`service-oidc-${alg}`, db.url, [], {
      OIDC_SIGNING_ALG: alg,
    });
    stops.push(() => ours.stop());
    const peer = await startPeer({
      alg,
      users,
      clientId: OIDC_CLIENT_ID,
      clientSecret: client.clientSecret,
      nodeFlags: bench.nodeFlags(`oidc-provider-${alg}`),
    });
    stops.push(() => peer.stop());
    log(`OIDC ${alg}: service pid ${ours.pid}, oidc-provider pid ${peer.pid}`);

    // ~1,000 people spread over the table, each signed in (a first-party session cookie).
    const userIds = spreadIds(users, 1000);
    const mint = tokenMinter(bench.secret);
    const cookies = userIds.map(
      (id) => `ac_session=${mint(id, 'account-center')}`,
    );
    const basic = basicAuth(OIDC_CLIENT_ID, client.clientSecret);
    const started = Date.now();
    const first = await exchangeCodes(
      ours,
      basic,
      await consentAll(ours, OIDC_CLIENT_ID, cookies),
    );
    const sides = {
      ours: {
        server: ours,
        m: { paths: await endpointPaths(ours), basic, access: first.access },
      },
      peer: {
        server: peer,
        m: {
          paths: await endpointPaths(peer),
          basic,
          access: await peerMint(peer, 'access', userIds, userIds.length),
        },
      },
    };
    log(
      `OIDC ${alg}: ${userIds.length} consents and access tokens on each side in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    /** Fresh material for one run: codes for token_code, never-used refresh tokens for refresh. */
    async function prepare(side, target, codeCount) {
      const { server, m } = sides[side];
      if (target === 'token_code') {
        m.codes =
          side === 'ours'
            ? await issueCodes(server, OIDC_CLIENT_ID, cookies, codeCount)
            : await peerMint(server, 'codes', userIds, codeCount);
      } else if (target === 'refresh') {
        m.refreshQueue =
          side === 'ours'
            ? (
                await exchangeCodes(
                  server,
                  basic,
                  await issueCodes(
                    server,
                    OIDC_CLIENT_ID,
                    cookies,
                    REFRESH_FAMILIES,
                  ),
                )
              ).refresh
            : await peerMint(server, 'refresh', userIds, REFRESH_FAMILIES);
      }
    }

    async function run(side, target, seconds, codeCount) {
      await prepare(side, target, codeCount);
      const { server, m } = sides[side];
      // The first failure's answer, so an error stops the bench with its reason.
      let failure;
      const requests = OIDC_REQUESTS[target](m).map((req) => ({
        ...req,
        onResponse: (status, body, ...rest) => {
          if ((status < 200 || status > 299) && !failure)
            failure = `${status} ${String(body).slice(0, 300)}`;
          req.onResponse?.(status, body, ...rest);
        },
      }));
      const amount = target === 'token_code' ? m.codes.length : undefined;
      const r = await bench.measured(
        server,
        {
          url: server.url,
          connections: Math.min(connections, amount ?? connections),
          duration: seconds,
          amount,
          requests,
        },
        target,
      );
      if (r.errors) {
        throw new Error(
          `OIDC ${alg} ${target} on ${server.name}: ${r.errors} errors in ${r.total} requests (${r.non2xx} non-2xx); first: ${failure ?? 'a socket error or timeout'}`,
        );
      }
      return r;
    }

    const targets = OIDC_TARGETS.filter(
      (t) => !bench.targets || bench.targets.includes(t),
    );
    log(`OIDC ${alg}: warm-up`);
    const warm = {};
    for (const t of targets) {
      for (const side of ['ours', 'peer'])
        warm[`${side}.${t}`] = await run(side, t, bench.warmup, 1000);
    }
    // As many codes as a timed run of the faster side needs; both sides get the same number.
    const fastest = Math.max(
      warm['ours.token_code']?.rps ?? 0,
      warm['peer.token_code']?.rps ?? 0,
    );
    const codeCount = Math.min(
      60_000,
      Math.max(1000, Math.round(fastest * bench.duration)),
    );

    const runs = Object.fromEntries(
      targets.map((t) => [t, { ours: [], peer: [] }]),
    );
    for (let round = 1; round <= bench.rounds; round++) {
      log(`OIDC ${alg}: round ${round}/${bench.rounds}`);
      for (const t of targets) {
        const order = round % 2 ? ['ours', 'peer'] : ['peer', 'ours'];
        for (const side of order)
          runs[t][side].push(await run(side, t, bench.duration, codeCount));
        const [o, p] = [runs[t].ours.at(-1), runs[t].peer.at(-1)];
        log(
          `  ${t}: ours ${o.rps} rps, ${o.cpuUs} µs CPU/req; oidc-provider ${p.rps} rps, ${p.cpuUs} µs; ratio ${r2(o.rps / p.rps)} (CPU ${r2(p.cpuUs / Math.max(o.cpuUs, 1))})`,
        );
      }
    }
    return summariseOidc(alg, runs, codeCount);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

function side(rs) {
  return {
    rps: Math.round(mean(rs.map((r) => r.rps))),
    p50: r2(mean(rs.map((r) => r.p50))),
    p99: r2(mean(rs.map((r) => r.p99))),
    cpuUs: Math.round(mean(rs.map((r) => r.cpuUs))),
    rssMb: Math.max(...rs.map((r) => r.rssMb)),
    requests: rs.reduce((a, r) => a + r.total, 0),
  };
}

/** Per target: both sides averaged over the rounds, and the mean of the per-round ratios. */
function summariseOidc(alg, runs, codeCount) {
  const out = { alg, codesPerRun: codeCount, targets: {} };
  for (const [t, { ours, peer }] of Object.entries(runs)) {
    out.targets[t] = {
      ours: side(ours),
      peer: side(peer),
      peerFormat: PEER_FORMAT[t],
      wanted: OIDC_WANTED[t],
      rpsRatio: r2(mean(ours.map((o, i) => o.rps / peer[i].rps))),
      // What the check compares: unrounded, so a ratio just under the line is not rounded up to it.
      rpsRatioExact: mean(ours.map((o, i) => o.rps / peer[i].rps)),
      cpuRatio: r2(
        mean(ours.map((o, i) => peer[i].cpuUs / Math.max(o.cpuUs, 1))),
      ),
    };
  }
  return out;
}

export function printOidc(result) {
  console.log(
    `\nOpenID Connect vs oidc-provider (${result.alg}, SQLite, 1 worker; ratios are ours / oidc-provider, CPU ratio is its CPU µs/req over ours)`,
  );
  console.table(
    Object.entries(result.targets).map(([t, s]) => ({
      target: OIDC_LABELS[t],
      'ours rps': s.ours.rps,
      'peer rps': s.peer.rps,
      'rps ratio': s.rpsRatio,
      'CPU ratio': s.cpuRatio,
      wanted: `≥ ${s.wanted}`,
      'ours p99': s.ours.p99,
      'peer p99': s.peer.p99,
      'ours CPU µs': s.ours.cpuUs,
      'peer CPU µs': s.peer.cpuUs,
      'ours RSS': s.ours.rssMb,
      'peer RSS': s.peer.rssMb,
      'peer token': s.peerFormat,
    })),
  );
}

/** Check rows in the shape of bench/lib/report.mjs `checks`, the CPU ratio beside each. */
export function oidcChecks(result) {
  return Object.entries(result.targets).map(([t, s]) => ({
    check: `OIDC ${OIDC_LABELS[t]} / oidc-provider (${result.alg})`,
    measured: Math.round(s.rpsRatioExact * 1000) / 1000,
    target: `≥ ${s.wanted}`,
    result: s.rpsRatioExact >= s.wanted ? 'pass' : 'MISS',
    'CPU ratio': s.cpuRatio,
  }));
}
