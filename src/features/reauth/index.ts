/** What the reauth feature offers the others; everything else in this folder is its own. */
export { ReauthBody, ReauthFields } from './contract.js';
export { proofOf } from './proof-schema.js';
export {
  REAUTH_GRANT_MS,
  hasPassword,
  sessionKeyOf,
} from './reauth-service.js';
export type {
  ProveOptions,
  ReauthProof,
  ReauthService,
  SecondFactorCheck,
} from './reauth-service.js';
export type { ReauthGrantRepo } from './repository.js';
