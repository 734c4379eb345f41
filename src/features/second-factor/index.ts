/** What the second-factor feature offers the others; everything else in this folder is its own. */
export type { Passkey } from './repository.js';
export type { SecondFactorService } from './totp-service.js';
