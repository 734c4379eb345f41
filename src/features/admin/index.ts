/** What the admin feature offers the others; everything else in this folder is its own. */
export { AppSuspensionsReply } from './console-contract.js';
export type { AppSuspension } from './console-contract.js';
export { AuditPageReply, AuditQuery, pageNumber } from './contract.js';
export type { AuditEntryView, AuditPage } from './contract.js';
