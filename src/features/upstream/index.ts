/** What the upstream feature offers the others; everything else in this folder is its own. */
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
export type { RoleChange, RoleSync } from './role-map-sync.js';
export { upstreamRoutes } from './routes.js';
export { upstreamAccountRoutes } from './account-routes.js';
