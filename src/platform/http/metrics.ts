import type { FastifyInstance } from 'fastify';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Hits per bucket (not cumulative); the last slot is above every bound. */
  buckets: Float64Array;
}

/**
 * Request counts and latencies by method, route and status. Recording is a few map
 * look-ups and additions (prom-client's own observe() hashes the label object on every
 * call, which cost more than a whole `me` lookup); the Prometheus series are built only
 * when /metrics is scraped.
 */
export class HttpStats {
  private readonly byRoute = new Map<string, Map<number, Series>>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = method === 'GET' ? route : `${method} ${route}`;
    let statuses = this.byRoute.get(key);
    if (statuses === undefined) this.byRoute.set(key, (statuses = new Map()));
    let s = statuses.get(status);
    if (s === undefined) {
      s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS.length + 1) };
      statuses.set(status, s);
    }
    s.count += 1;
    s.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    s.buckets[i]! += 1;
  }

  series(): Series[] {
    return [...this.byRoute.values()].flatMap((m) => [...m.values()]);
  }

  reset(): void {
    this.byRoute.clear();
  }
}

/** A prom-client-compatible metric whose values are read from HttpStats at scrape time. */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => unknown[], reset: () => void) {
  const get = async () => ({ name, help, type, aggregator: 'sum', values: values() });
  return { name, help, type, aggregator: 'sum', get, getForPromString: get, reset };
}

/** One registry per app instance, so tests building several apps never collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = new HttpStats();
  const reset = () => http.reset();
  registry.registerMetric(scrapedMetric('http_requests_total', 'HTTP requests by route and status', 'counter',
    () => http.series().map((s) => ({ labels: s.labels, value: s.count })), reset) as never);
  registry.registerMetric(scrapedMetric('http_request_duration_seconds', 'HTTP request latency by route and status', 'histogram',
    () => http.series().flatMap((s) => {
      let cumulative = 0;
      const buckets = LATENCY_BUCKETS.map((le, i) => {
        cumulative += s.buckets[i]!;
        return { labels: { ...s.labels, le }, value: cumulative, metricName: 'http_request_duration_seconds_bucket' };
      });
      return [
        ...buckets,
        { labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: 'http_request_duration_seconds_bucket' },
        { labels: s.labels, value: s.sum, metricName: 'http_request_duration_seconds_sum' },
        { labels: s.labels, value: s.count, metricName: 'http_request_duration_seconds_count' },
      ];
    }), reset) as never);
  return {
    registry,
    http,
    logins: new Counter({ name: 'login_attempts_total', help: 'Sign-in attempts by method and result', labelNames: ['method', 'result'] as const, registers: [registry] }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `GET /metrics`; the per-route counters are fed by plugins/request-log.ts as each answer goes out. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
