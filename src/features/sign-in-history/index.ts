/** What the sign-in history feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { signInHistoryRoutes, type SignInHistoryRouteDeps } from './routes.js';
export { SignInHistory, SIGN_IN_RETENTION_MS } from './history-service.js';
export type { SignInHistoryRepo } from './repository.js';
export type { SignInHistoryRouteDeps };

/** The sign-in history (docs/api.md §17). */
export async function register(
  app: FastifyInstance,
  deps: SignInHistoryRouteDeps,
): Promise<void> {
  await routesInScope(app, signInHistoryRoutes, deps);
}
