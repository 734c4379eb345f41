/** What the audit feature offers the others; everything else in this folder is its own. */
export { auditView } from './audit-log.js';
export type { AuditLog } from './audit-log.js';
