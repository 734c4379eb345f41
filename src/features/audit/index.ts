/** What the audit feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { auditRoutes, type AuditRouteDeps } from './routes.js';
export { auditView } from './audit-log.js';
export type { AuditLog } from './audit-log.js';
export type { AuditRouteDeps };

export type { AuditRepo } from './repository.js';
/** The audit log for administrators. */
export async function register(
  app: FastifyInstance,
  deps: AuditRouteDeps,
): Promise<void> {
  await routesInScope(app, auditRoutes, deps);
}
