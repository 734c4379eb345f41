/** What the account-settings feature offers the others; everything else in this folder is its own. */
export { SessionView } from './contract.js';
export type { AccountSettingsService } from './settings-service.js';
