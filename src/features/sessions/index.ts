/** What the sessions feature offers the others; everything else in this folder is its own. */
export { PublicUser, TokenEnvelope } from './contract.js';
export type { RevokedTokens } from './revoked-tokens.js';
export { publicUser } from './token-service.js';
export type { Authenticated, TokenService } from './token-service.js';
export type { UserCache } from './user-cache.js';
export { VerifiedTokens } from './verified-tokens.js';
export type { SessionRepo } from './repository.js';
export type { SessionService } from './session-service.js';
export { adminActorOf, appActor } from './bearer-guard.js';
export { PASSKEY_METHOD, amrOfMethod, signInMethod } from './sign-in-method.js';
export type { SessionsTables } from './tables.js';
