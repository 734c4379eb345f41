/** What the authorization feature offers the others; everything else in this folder is its own. */
export { CodeReplays, type FamilyRevoker } from './code-replay.js';
export { verifyPkce } from './pkce.js';
export type { AuthCodeRepo } from './repository.js';
