/**
 * The rate limiter on two workers of a node:cluster whose primary keeps the counters (the
 * compiled service in dist/, as `serve --workers N` runs it). The primary drives a fixed
 * sequence of takes and returns on both workers and prints what they saw as one JSON line.
 */
import cluster from 'node:cluster';

const dist = new URL('../../dist/', import.meta.url);
const { clusterCounters, serveClusterCounters } = await import(
  new URL('platform/rate-limit/counters.js', dist).href
);
const { RateLimiter } = await import(
  new URL('features/limits/rate-limiter.js', dist).href
);
const { DEFAULT_LIMITS } = await import(
  new URL('features/limits/policy.js', dist).href
);

const POLICY = {
  ...DEFAULT_LIMITS,
  deviceApproveWrong: { max: 10, windowS: 60 },
  otpPair: { max: 1, windowS: 60 },
};

if (cluster.isWorker) {
  const limiter = new RateLimiter(clusterCounters(), POLICY, true);
  process.on('message', async (m) => {
    if (!m || m.fixture === undefined) return;
    const { id, op, rule, subject, n } = m.fixture;
    let answer;
    if (op === 'take') {
      const taken = await Promise.all(
        Array.from({ length: n }, () => limiter.take(rule, subject)),
      );
      answer = {
        within: taken.filter((t) => t.within).length,
        retryAfterS: taken.find((t) => !t.within)?.refusal().retryAfterS,
      };
    } else if (op === 'giveBack') {
      for (let i = 0; i < n; i++) await limiter.giveBack(rule, subject);
    } else if (op === 'reset') {
      await limiter.reset(rule, subject);
    } else {
      process.exit(0);
    }
    process.send({ fixture: { id, answer } });
  });
  process.send({ fixture: { ready: true } });
} else {
  serveClusterCounters();
  const workers = [cluster.fork(), cluster.fork()];
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) =>
          w.on('message', (m) => {
            if (m?.fixture?.ready) resolve();
          }),
        ),
    ),
  );
  let seq = 0;
  const ask = (worker, command) =>
    new Promise((resolve) => {
      const id = ++seq;
      const onMessage = (m) => {
        if (m?.fixture?.id !== id) return;
        worker.off('message', onMessage);
        resolve(m.fixture.answer);
      };
      worker.on('message', onMessage);
      worker.send({ fixture: { id, ...command } });
    });
  const both = (command) => Promise.all(workers.map((w) => ask(w, command)));
  const [a, b] = workers;
  const subject = `s:${process.pid}`;
  const wrong = { rule: 'deviceApproveWrong', subject };

  const first = await both({ op: 'take', n: 30, ...wrong });
  await ask(a, { op: 'giveBack', n: 55, ...wrong });
  const afterReturns = await ask(b, { op: 'take', n: 1, ...wrong });
  await ask(b, { op: 'giveBack', n: 20, ...wrong });
  const second = await both({ op: 'take', n: 6, ...wrong });

  const otp = { rule: 'otpPair', subject };
  const allowed = await ask(a, { op: 'take', n: 1, ...otp });
  const refused = await ask(b, { op: 'take', n: 1, ...otp });
  await ask(a, { op: 'reset', ...otp });
  const afterReset = await ask(b, { op: 'take', n: 1, ...otp });

  console.log(
    JSON.stringify({
      firstWithin: first[0].within + first[1].within,
      afterReturnsWithin: afterReturns.within,
      secondWithin: second[0].within + second[1].within,
      allowedWithin: allowed.within,
      refused,
      afterResetWithin: afterReset.within,
    }),
  );
  for (const w of workers) w.send({ fixture: { op: 'exit' } });
}
