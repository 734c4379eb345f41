// The comparisons beside the targets: me under a login load, a big user table, two workers.
import { addRun, printTable, summarise } from './report.mjs';
import { clusterSupported, prepareDatabase } from './setup.mjs';

/** me idle and while logins saturate argon2 (16 connections). */
export async function saturation(b) {
  const { service, ctx, runTarget, log, duration } = b;
  log('me while logins saturate argon2');
  const idle = await runTarget(service, 'me', ctx);
  const [meLoad, loginLoad] = await Promise.all([
    runTarget(service, 'me', ctx),
    runTarget(service, 'login', ctx, duration, 16),
  ]);
  const saturation = {
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
  return saturation;
}

/** The same targets against a small and a big user table. */
export async function scale(b) {
  const {
    service,
    ctx,
    runTarget,
    startService,
    context,
    log,
    db,
    tmp,
    secret,
    stoppers,
    users,
    bigUsers,
    rounds,
    warmup,
    targets,
  } = b;
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
  printTable('Scale: the same targets against a small and a big user table', s);
  const scale = Object.fromEntries(
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
  return scale;
}

/** me with 1 and 2 workers; undefined where serve --workers is missing. */
export async function workers(b) {
  const { service, ctx, mainDb, runTarget, startService, log, rounds, warmup } =
    b;
  if (!clusterSupported()) {
    log('serve --workers is not available yet: skipping the worker comparison');
    return undefined;
  }
  {
    const w2 = await startService('service-w2', mainDb.url, ['--workers', '2']);
    await runTarget(w2, 'me', ctx, warmup);
    const runsW = {};
    for (let r = 0; r < rounds; r++) {
      addRun(runsW, 'me, 1 worker', await runTarget(service, 'me', ctx));
      addRun(runsW, 'me, 2 workers', await runTarget(w2, 'me', ctx));
    }
    const s = summarise(runsW);
    printTable('Workers: me with 1 and 2 workers', s);
    return { w1: s['me, 1 worker'], w2: s['me, 2 workers'] };
  }
}
