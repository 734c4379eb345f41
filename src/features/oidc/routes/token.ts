import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../platform/http/typed-scope.js';
import { KNOWN_GRANTS } from '../token-endpoint.js';
import {
  NO_STORE,
  formBody,
  registerOAuthErrors,
  toOAuthError,
} from '../http/http-errors.js';
import { TokenResponse } from '../contract.js';
import { param } from '../params.js';
import type { OidcRouteDeps } from '../http/route-deps.js';

/** The token endpoint (docs/api.md §12.4): form bodies only; the use case authenticates the client and runs the grant. */
export async function tokenRoutes(
  app: FastifyInstance,
  { provider, grantsCounter }: OidcRouteDeps,
) {
  registerOAuthErrors(app);

  app.post(
    '/oauth/token',
    { schema: { hide: true, response: { 200: TokenResponse } } },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      let grantLabel = 'unknown';
      try {
        const body = formBody(request.body, request.headers['content-type']);
        const grantType = param(body, 'grant_type');
        if (grantType !== undefined)
          grantLabel = KNOWN_GRANTS.has(grantType) ? grantType : 'unsupported';
        const out = await provider.token.answer(
          request.headers.authorization,
          body,
          callerOf(request),
        );
        grantsCounter.inc({ grant_type: grantLabel, result: 'ok' });
        return out;
      } catch (err) {
        const e = toOAuthError(err);
        grantsCounter.inc({ grant_type: grantLabel, result: e.error });
        throw e;
      }
    },
  );
}
