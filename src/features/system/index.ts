/** What the system feature offers the others and the composition root; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { systemRoutes, type SystemRouteDeps } from './routes.js';

export type { SystemRouteDeps };

/** The liveness and readiness probes (docs/api.md §11). */
export async function register(
  app: FastifyInstance,
  deps: SystemRouteDeps,
): Promise<void> {
  await routesInScope(app, systemRoutes, deps);
}
