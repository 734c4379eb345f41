/** What the sign-in feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { accountRoutes, type AccountRouteDeps } from './routes.js';
export { passwordChangedNotice } from './account-notices.js';
export type { AccountService } from './account-service.js';
export type { AccountEmails } from './account-emails.js';
export { SendCodeReply } from './contract.js';
export type { AccountRouteDeps };

/** Registration, sign-in and e-mail codes. */
export async function register(
  app: FastifyInstance,
  deps: AccountRouteDeps,
): Promise<void> {
  await routesInScope(app, accountRoutes, deps);
}
