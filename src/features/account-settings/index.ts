/** What the account-settings feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import {
  accountSettingsRoutes,
  type AccountSettingsRouteDeps,
} from './routes.js';
export { SessionView } from './contract.js';
export type { AccountSettingsService } from './settings-service.js';
export type { AccountSettingsRouteDeps };

/** The signed-in person's own settings. */
export async function register(
  app: FastifyInstance,
  deps: AccountSettingsRouteDeps,
): Promise<void> {
  await routesInScope(app, accountSettingsRoutes, deps);
}
