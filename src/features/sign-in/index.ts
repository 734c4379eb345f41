/** What the sign-in feature offers the others; everything else in this folder is its own. */
export { passwordChangedNotice } from './account-notices.js';
export type { AccountService } from './account-service.js';
export { SendCodeReply } from './contract.js';
