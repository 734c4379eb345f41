import type { FastifyInstance } from 'fastify';
import {
  Counter,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';

/** Request latency buckets, seconds: from a cached read to a slow password hash. */
const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];

/** What the request log records for each answer (platform/http/request-log.ts). */
export interface RequestStats {
  record(method: string, route: string, status: number, seconds: number): void;
}

/** One registry per app instance, so tests building several apps never collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // The request count is the latency histogram's own count, so an answer updates one series,
  // not two; the counter is filled from it when it is read.
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames,
    registers: [registry],
    async collect() {
      const { values } = await latency.get();
      // Reset and refilled in one synchronous step, so two reads at once can not add up twice.
      this.reset();
      for (const v of values) {
        if (v.metricName === 'http_request_duration_seconds_count')
          this.inc(
            v.labels as Record<(typeof labelNames)[number], string>,
            v.value,
          );
      }
    },
  });
  // prom-client hashes a label object on every call; the series of one method, route pattern
  // and status are looked up once and kept (their number is bounded by the routes).
  const series = new Map<string, { observe(v: number): void }>();
  const http: RequestStats = {
    record(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let s = series.get(key);
      if (s === undefined) {
        s = latency.labels({ method, route, status });
        series.set(key, s);
      }
      s.observe(seconds);
    },
  };
  /** Requests answered with `status` since this instance started, over every route. */
  const answeredWith = async (status: number): Promise<number> =>
    (await requests.get()).values
      .filter((v) => String(v.labels.status) === String(status))
      .reduce((n, v) => n + v.value, 0);
  return {
    registry,
    http,
    answeredWith,
    logins: new Counter({
      name: 'login_attempts_total',
      help: 'Sign-in attempts by method and result',
      labelNames: ['method', 'result'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `GET /metrics`; the per-route series are fed by request-log.ts as each answer goes out. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
