/** What the sign-in history feature offers the others; everything else in this folder is its own. */
export { SignInHistory, SIGN_IN_RETENTION_MS } from './history-service.js';
export type { SignInHistoryRepo } from './repository.js';
export { signInHistoryRoutes } from './routes.js';
