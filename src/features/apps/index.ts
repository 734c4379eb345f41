/** What the apps feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { appsRoutes, type AppRouteDeps } from './routes.js';
export type { AppCache } from './app-cache.js';
export {
  ADMIN_SCOPES,
  isAdminScope,
  isReservedScopeName,
  mayUseAdminScope,
} from './admin-scopes.js';
export type { AdminScope } from './admin-scopes.js';
export {
  MAX_REDIRECT_URIS,
  couldBeUserSubject,
  isReservedClientId,
} from './app-rules.js';
export { SUSPENDED } from './app-service.js';
export { appView } from './app-view.js';
export { isActive } from './app-state.js';
export type { AppStatusCache } from './app-status.js';
export type { ClientResolution, ResolvedClient } from './client-directory.js';
export { builtInAppName } from './client-directory.js';
export { AppSuspensionsReply, AppView } from './contract.js';
export {
  allowedOriginsOf,
  composeRedirectUrl,
  isRegisteredRedirect,
  isValidOrigin,
  isValidRedirectUri,
} from './redirect-uris.js';
export { grantScope, isValidScopeName, splitScope } from './scope.js';
export type { App, AppRepo } from './repository.js';
export type { AppsTables } from './tables.js';
export type { AppService } from './app-service.js';
export type { AppRouteDeps };

export type { ClientDirectory } from './client-directory.js';
/** The developers' applications. */
export async function register(
  app: FastifyInstance,
  deps: AppRouteDeps,
): Promise<void> {
  await routesInScope(app, appsRoutes, deps);
}
export { admits } from './required-roles.js';
