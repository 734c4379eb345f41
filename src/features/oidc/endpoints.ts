import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ContractApp } from '../../platform/http/typed-scope.js';
import { registerFormBody } from './http/form-body.js';
import { authorizeEndpointRoutes } from './routes/authorize.js';
import { pagesSessionRoutes } from './routes/pages-session.js';
import { authorizedAppsRoutes } from './routes/authorized-apps.js';
import { endSessionRoutes } from './routes/end-session.js';
import {
  oidcRouteDeps,
  type OidcPluginDeps,
  type OidcRouteDeps,
} from './http/route-deps.js';
import { discoveryRoutes } from './routes/discovery.js';
import { tokenRoutes } from './routes/token.js';
import { resourceRoutes } from './routes/resources.js';
import { deviceAuthorizationRoutes } from './routes/device-authorization.js';
import { documentOidcRoutes } from './http/openapi.js';

type RouteModule = (
  app: FastifyInstance,
  deps: OidcPluginDeps,
) => Promise<void>;

/** The standard endpoints (RFC bodies: form-encoded, `{ error, error_description }`). */
const STANDARD: RouteModule[] = [authorizeEndpointRoutes, endSessionRoutes];
/** The token side: discovery, keys, token, userinfo, revocation, introspection, device authorization. */
const TOKEN_SIDE: Array<
  (app: FastifyInstance, deps: OidcRouteDeps) => Promise<void>
> = [discoveryRoutes, tokenRoutes, resourceRoutes, deviceAuthorizationRoutes];
/** JSON helpers of the pages, with the v1 API's envelopes; no form parser in their scope. */
const PAGE_HELPERS: Array<
  (app: ContractApp, deps: OidcPluginDeps) => Promise<void>
> = [pagesSessionRoutes, authorizedAppsRoutes];

/** The OAuth 2.0 / OpenID Connect provider (docs/api.md §12), registered once by the feature's register(). */
export async function oidcPlugin(
  app: FastifyInstance,
  deps: OidcPluginDeps,
): Promise<void> {
  documentOidcRoutes(app);
  await app.register(async (standard) => {
    registerFormBody(standard);
    for (const routes of STANDARD)
      await standard.register(async (scope) => routes(scope, deps));
    const oidc = oidcRouteDeps(deps);
    for (const routes of TOKEN_SIDE)
      await standard.register(async (scope) => routes(scope, oidc));
  });
  for (const routes of PAGE_HELPERS)
    await app.register(async (scope) =>
      routes(scope.withTypeProvider<TypeBoxTypeProvider>(), deps),
    );
}
