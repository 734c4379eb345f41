/** What the sessions feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { sessionRoutes, type SessionRouteDeps } from './routes.js';
export { PublicUser, TokenEnvelope } from './contract.js';
export type { RevokedTokens } from './revoked-tokens.js';
export { publicUser } from './token-service.js';
export type { Authenticated, TokenService } from './token-service.js';
export type { UserCache } from './user-cache.js';
export { VerifiedTokens } from './verified-tokens.js';
export type { RevocationRepo, SessionRepo } from './repository.js';
export type { SessionService } from './session-service.js';
export { adminActorOf, appActor } from './bearer-guard.js';
export { PASSKEY_METHOD, amrOfMethod, signInMethod } from './sign-in-method.js';
export type { SessionsTables } from './tables.js';
export type { AuthGuards } from './bearer-guard.js';
export type { SessionRouteDeps };
export type { SignIns } from './sign-ins.js';

/** me, refresh and logout (docs/api.md §3). */
export async function register(
  app: FastifyInstance,
  deps: SessionRouteDeps,
): Promise<void> {
  await routesInScope(app, sessionRoutes, deps);
}
