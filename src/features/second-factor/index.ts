/** What the second-factor feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { secondFactorRoutes, type SecondFactorRouteDeps } from './routes.js';
export type { Passkey, PasskeyRepo, SecondFactorRepo } from './repository.js';
export type { SecondFactorService } from './totp-service.js';
export type { PasskeyService } from './passkey-service.js';
export type { SecondFactorRouteDeps };

/** The authenticator app, recovery codes and passkeys. */
export async function register(
  app: FastifyInstance,
  deps: SecondFactorRouteDeps,
): Promise<void> {
  await routesInScope(app, secondFactorRoutes, deps);
}
