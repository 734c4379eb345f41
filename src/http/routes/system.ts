import type { FastifyInstance } from 'fastify';
import { MSG } from '../../errors/index.js';
import type { RouteDeps } from '../deps.js';

/** Liveness and readiness probes (CONTRACT §9). */
export async function systemRoutes(app: FastifyInstance, { services }: RouteDeps) {
  app.get('/healthz', { schema: { tags: ['system'], summary: 'The process is up' } }, async () => ({ ok: true, data: { status: 'ok' } }));
  app.get('/readyz', { schema: { tags: ['system'], summary: 'The database answers' } }, async (_request, reply) => {
    if (await services.storage.ping()) return { ok: true, data: { status: 'ready' } };
    return reply.code(503).send({ ok: false, msg: MSG.dbUnavailable });
  });
}
