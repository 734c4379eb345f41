/** What the admin feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { adminRoutes, type AdminRouteDeps } from './routes.js';
import { roleRoutes } from './role-routes.js';
import {
  adminConsoleRoutes,
  type AdminConsoleRouteDeps,
} from './console-routes.js';

export type { AdminService } from './admin-service.js';
export type { AdminConsoleService } from './console-service.js';
export type { AdminRouteDeps, AdminConsoleRouteDeps };

/** The admin API and the console behind it. */
export async function register(
  app: FastifyInstance,
  deps: AdminRouteDeps & AdminConsoleRouteDeps,
): Promise<void> {
  await routesInScope(app, adminRoutes, deps);
  await routesInScope(app, roleRoutes, deps);
  await routesInScope(app, adminConsoleRoutes, deps);
}
