/** What the apps feature offers the others; everything else in this folder is its own. */
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
export { admits } from './required-roles.js';
