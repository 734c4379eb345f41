/** What the authorization feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { authorizeRoutes, type AuthorizeRouteDeps } from './routes.js';
export { CodeReplays, type FamilyRevoker } from './code-replay.js';
export { verifyPkce } from './pkce.js';
export type { AuthCodeRepo } from './repository.js';
export type { AuthorizationService } from './authorization-service.js';
export type { AuthorizeRouteDeps };

/** The v1 authorization page and code exchange. */
export async function register(
  app: FastifyInstance,
  deps: AuthorizeRouteDeps,
): Promise<void> {
  await routesInScope(app, authorizeRoutes, deps);
}
