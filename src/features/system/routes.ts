import { failureOf } from '../../errors/index.js';
import { HealthReply, ReadyReplies } from './contract.js';
import { responses } from '../../platform/http/contract.js';
import type { ContractApp } from '../../platform/http/typed-scope.js';

/** What the routes below are given. */
export interface SystemRouteDeps {
  /** Readiness: whether the database answers. */
  services: { ready(): Promise<boolean> };
}

/** Liveness and readiness probes (docs/api.md §11). */
export async function systemRoutes(
  app: ContractApp,
  { services }: SystemRouteDeps,
) {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: 'The process is up',
        response: responses(HealthReply),
      },
    },
    async () => ({ ok: true as const, data: { status: 'ok' as const } }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: 'The database answers',
        response: ReadyReplies,
      },
    },
    async (_request, reply) => {
      if (await services.ready())
        return { ok: true as const, data: { status: 'ready' as const } };
      const { status, body } = failureOf('dbUnavailable');
      return reply.code(status).send(body);
    },
  );
}
