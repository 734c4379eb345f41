// Tables and the pass/miss checks of the performance targets (docs/performance.md).
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Files one round's result of a target under its name, for summarise. */
export function addRun(runs, name, result) {
  runs[name] ??= [];
  runs[name].push(result);
}

/** Averages the rounds of each target; ratios against the baseline runs next to each one. */
export function summarise(runs) {
  const out = {};
  for (const [name, rs] of Object.entries(runs)) {
    const s = {
      rps: Math.round(mean(rs.map((r) => r.rps))),
      p50: round(mean(rs.map((r) => r.p50))),
      p99: round(mean(rs.map((r) => r.p99))),
      errors: rs.reduce((a, r) => a + r.errors, 0),
      rssMb: Math.max(...rs.map((r) => r.rssMb ?? 0)),
      cpuUs: Math.round(mean(rs.map((r) => r.cpuUs ?? 0))),
    };
    if (rs[0].base) {
      s.baseRps = Math.round(mean(rs.map((r) => r.base.rps)));
      s.baseP99 = round(mean(rs.map((r) => r.base.p99)));
      // Checks compare the exact mean: a 0.196 shown as 0.2 must not pass a "≥ 0.2".
      s.rpsRatioExact = mean(rs.map((r) => r.rps / r.base.rps));
      s.rpsRatio = round(s.rpsRatioExact);
      s.p99RatioExact = mean(rs.map((r) => r.p99 / Math.max(r.base.p99, 1)));
      s.p99Ratio = round(s.p99RatioExact);
      // CPU per request of the baseline over the target's: the rps ratio two CPU-bound
      // servers would show on an otherwise idle machine.
      s.baseCpuUs = Math.round(mean(rs.map((r) => r.base.cpuUs)));
      s.cpuRatio = round(
        mean(rs.map((r) => r.base.cpuUs / Math.max(r.cpuUs, 1))),
      );
    }
    out[name] = s;
  }
  return out;
}

export function printTable(title, summary) {
  console.log(`\n${title}`);
  const rows = Object.entries(summary).map(([target, s]) => ({
    target,
    rps: s.rps,
    'p50 ms': s.p50,
    'p99 ms': s.p99,
    errors: s.errors,
    'base rps': s.baseRps ?? '',
    'rps ratio': s.rpsRatio ?? '',
    'p99 ratio': s.p99Ratio ?? '',
    'CPU µs/req': s.cpuUs,
    'base CPU µs': s.baseCpuUs ?? '',
    'CPU ratio': s.cpuRatio ?? '',
    'RSS MB': s.rssMb || '',
  }));
  console.table(rows);
}

/**
 * Each check: label, measured, wanted, passed. Skipped checks are left out. The figure is
 * compared unrounded and shown to three places, so one at the line reads as what it is.
 */
export function checks(db, main, extra) {
  const list = [];
  const add = (label, value, wanted, ok) =>
    list.push({
      check: label,
      measured: round(value, 3),
      target: wanted,
      result: ok ? 'pass' : 'MISS',
    });
  const me = main.me;
  if (me?.rpsRatioExact !== undefined) {
    if (db === 'postgres')
      add(
        'me rps ratio (PostgreSQL)',
        me.rpsRatioExact,
        '≥ 0.4',
        me.rpsRatioExact >= 0.4,
      );
    else {
      add('me rps ratio', me.rpsRatioExact, '≥ 0.6', me.rpsRatioExact >= 0.6);
      add('me p99 ratio', me.p99RatioExact, '≤ 2', me.p99RatioExact <= 2);
    }
  }
  if (db === 'postgres' && main.userinfo?.rpsRatioExact !== undefined) {
    add(
      'OIDC userinfo rps ratio (PostgreSQL)',
      main.userinfo.rpsRatioExact,
      '≥ 0.4',
      main.userinfo.rpsRatioExact >= 0.4,
    );
  }
  for (const [t, want] of [
    ['exchange', 0.2],
    ['refresh', 0.5],
    ['client_info', 0.6],
  ]) {
    if (main[t]?.rpsRatioExact !== undefined)
      add(
        `${t} rps ratio`,
        main[t].rpsRatioExact,
        `≥ ${want}`,
        main[t].rpsRatioExact >= want,
      );
  }
  for (const [t, { small, big }] of Object.entries(extra.scale ?? {})) {
    const r = big.rps / small.rps;
    add(
      `${t} rps, ${big.users.toLocaleString()} vs ${small.users.toLocaleString()} users`,
      r,
      '≥ 0.9',
      r >= 0.9,
    );
  }
  // One service process; a cluster's total (primary plus workers) is shown in its own table.
  // Every run of a service process counts: the targets', the saturation check's and both scale sides'.
  const rss = Math.max(
    0,
    ...Object.values(main).map((s) => s.rssMb ?? 0),
    extra.saturation?.rssMb ?? 0,
    ...Object.values(extra.scale ?? {}).flatMap((x) => [
      x.small.rssMb ?? 0,
      x.big.rssMb ?? 0,
    ]),
  );
  if (rss) add('max RSS MB, one process', rss, '< 300', rss < 300);
  if (extra.saturation) {
    const r = extra.saturation.meP99 / Math.max(extra.saturation.idleP99, 1);
    add('me p99 under login load / idle', r, '≤ 3', r <= 3);
  }
  return list;
}
