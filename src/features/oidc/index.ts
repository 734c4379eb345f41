/** What the oidc feature offers the others and the composition root; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { oidcPlugin } from './endpoints.js';
import type { OidcPluginDeps } from './http/route-deps.js';

export type { OidcPluginDeps };

export type {
  ConsentRepo,
  RefreshTokenRepo,
  SigningKeyRepo,
} from './repository.js';
/** The OAuth 2.0 / OpenID Connect provider (docs/api.md §12). */
export async function register(
  app: FastifyInstance,
  deps: OidcPluginDeps,
): Promise<void> {
  await app.register(async (scope) => oidcPlugin(scope, deps));
}
