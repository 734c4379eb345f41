import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per app instance, so tests building several apps never collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({ name: 'http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'] as const, registers: [registry] }),
    latency: new Histogram({
      name: 'http_request_duration_seconds', help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'] as const, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry],
    }),
    logins: new Counter({ name: 'login_attempts_total', help: 'Sign-in attempts by method and result', labelNames: ['method', 'result'] as const, registers: [registry] }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, keeps label cardinality bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    metrics.requests.inc(labels);
    metrics.latency.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
