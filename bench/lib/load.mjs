// autocannon runs: one target for a fixed time (or a fixed number of requests), summarised.
import autocannon from 'autocannon';

/**
 * `requests`: autocannon request objects; their setupRequest feeds a different token or code
 * to each request. Returns rps, latency percentiles and every kind of failure.
 */
export function load({
  url,
  connections = 50,
  duration = 10,
  amount,
  requests,
  timeout = 10,
}) {
  return new Promise((resolve, reject) => {
    const opts = { url, connections, timeout, requests };
    if (amount) opts.amount = amount;
    else opts.duration = duration;
    const started = performance.now();
    let lastAnswer = started;
    const instance = autocannon(opts, (err, r) => {
      if (err) return reject(err);
      // With `amount`, autocannon reports at its next 1-second tick after the last answer, so its
      // own span rounds up to whole seconds; the rate is taken up to the last answer instead.
      const seconds = amount
        ? (lastAnswer - started) / 1000
        : (r.finish - r.start) / 1000 || r.duration;
      resolve({
        rps: Math.round(r.requests.total / seconds),
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.non2xx + r.errors + r.timeouts,
        non2xx: r.non2xx,
        total: r.requests.total,
      });
    });
    instance.on('error', reject);
    if (amount) instance.on('response', () => (lastAnswer = performance.now()));
  });
}

/** Cycles through `values`, one per request, applied by `apply(req, value)`. */
export function cycling(values, apply) {
  let i = 0;
  return (req) => apply(req, values[i++ % values.length]);
}

export const bearer = (token) => ({ authorization: `Bearer ${token}` });
