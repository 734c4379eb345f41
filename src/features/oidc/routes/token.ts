import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../platform/http/typed-scope.js';
import { KNOWN_GRANTS } from '../token-endpoint.js';
import { NO_STORE, formBody, registerOAuthErrors, toOAuthError } from '../http/http-errors.js';
import { TokenResponse } from '../contract.js';
import { param } from '../params.js';
import type { OidcRouteDeps } from '../http/route-deps.js';
import type { Arrival } from '../arrival-order.js';

/** The token endpoint (docs/api.md §12.4): form bodies only; the use case authenticates the client and runs the grant. */
export async function tokenRoutes(app: FastifyInstance, { provider, grantsCounter }: OidcRouteDeps) {
  registerOAuthErrors(app);
  // When each request reached the server, before its body was read: tells a refresh race from reuse.
  const arrivals = new WeakMap<object, Arrival>();
  app.addHook('onRequest', (request, _reply, done) => {
    arrivals.set(request, provider.arrivals.arrive());
    done();
  });

  app.post('/oauth/token', { schema: { hide: true, response: { 200: TokenResponse } } }, async (request, reply) => {
    const arrival = arrivals.get(request) ?? provider.arrivals.current();
    void reply.headers(NO_STORE);
    let grantLabel = 'unknown';
    try {
      const body = formBody(request.body, request.headers['content-type']);
      const grantType = param(body, 'grant_type');
      if (grantType !== undefined) grantLabel = KNOWN_GRANTS.has(grantType) ? grantType : 'unsupported';
      const out = await provider.token.answer(request.headers.authorization, body, callerOf(request), arrival);
      grantsCounter.inc({ grant_type: grantLabel, result: 'ok' });
      return out;
    } catch (err) {
      const e = toOAuthError(err);
      grantsCounter.inc({ grant_type: grantLabel, result: e.error });
      throw e;
    }
  });
}
