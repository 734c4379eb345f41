// Load runs against a started service or the baseline, with the server's CPU time per request.
import { load } from './load.mjs';
import { spreadIds } from './seed.mjs';
import { TARGETS } from './targets.mjs';

/** The run helpers for one bench: its duration, connections, logging and token minter. */
export function runner({ duration, connections, cpuProf, log, mint }) {
  function context(count) {
    const userIds = spreadIds(count, 1000);
    return {
      userIds,
      tokens: userIds.map((id) => mint(id, 'bench-app')),
      centerTokens: userIds
        .slice(0, 100)
        .map((id) => mint(id, 'account-center')),
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
    if (cpuProf)
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

  return { context, runTarget, measured, baselineRun };
}
