/** What the upstream feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { upstreamRoutes, type UpstreamRouteDeps } from './routes.js';
import {
  upstreamAccountRoutes,
  type UpstreamAccountRouteDeps,
} from './account-routes.js';
export {
  createUpstreamServices,
  type UpstreamServices,
} from './upstream-services.js';
export type {
  UpstreamFlowRepo,
  UpstreamLinkRepo,
  UpstreamProviderRepo,
} from './repository.js';
export { ProviderOptionError } from './provider-rules.js';
export type { UpstreamRouteDeps, UpstreamAccountRouteDeps };

/** Signing in with other accounts, and the links to them (docs/api.md §14). */
export async function register(
  app: FastifyInstance,
  deps: UpstreamRouteDeps & UpstreamAccountRouteDeps,
): Promise<void> {
  await routesInScope(app, upstreamRoutes, deps);
  await routesInScope(app, upstreamAccountRoutes, deps);
}
export type { RoleChange, RoleSync } from './role-map-sync.js';
