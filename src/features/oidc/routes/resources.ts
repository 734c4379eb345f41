import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { scopeList, userInfoOf } from '../claims.js';
import type { LiveAccess } from '../token-checks.js';
import {
  NO_STORE,
  formBody,
  registerOAuthErrors,
} from '../http/http-errors.js';
import { OAuthError, invalidRequest, invalidToken } from '../oauth-error.js';
import { param, required } from '../params.js';
import { fieldsOf } from '../http/form-body.js';
import type { OidcRouteDeps } from '../http/route-deps.js';
import { IntrospectionResponse, UserInfoResponse } from '../contract.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by UserInfo's guard: what the request's access token grants. */
    liveAccess: LiveAccess | undefined;
  }
}

const BEARER = /^bearer +([A-Za-z0-9\-_.~+/]+=*)$/i;

/** RFC 6750 §2.1 header, or §2.2 form field on POST; never both. */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const fromBody =
    request.method === 'POST' &&
    request.headers['content-type']
      ?.toLowerCase()
      .startsWith('application/x-www-form-urlencoded')
      ? param(fieldsOf(request.body), 'access_token')
      : undefined;
  if (header !== undefined) {
    if (fromBody !== undefined)
      throw invalidRequest('Send the access token once');
    const m = BEARER.exec(header.trim());
    if (!m)
      throw invalidToken('The Authorization header is not a Bearer token');
    return m[1]!;
  }
  if (fromBody !== undefined) return fromBody;
  throw new OAuthError('invalid_token', 'An access token is required', 401, {
    'www-authenticate': 'Bearer error="invalid_token"',
  });
}

/** UserInfo (OIDC Core §5.3), revocation (RFC 7009), introspection (RFC 7662). */
export async function resourceRoutes(
  app: FastifyInstance,
  { provider }: OidcRouteDeps,
) {
  registerOAuthErrors(app);
  const schema = { hide: true };

  /** The answer for a live token: the person's claims for the token's scope, which must hold `openid`. */
  const userinfoOf = (live: LiveAccess | undefined): UserInfoResponse => {
    if (!live?.user) throw invalidToken();
    if (!scopeList(live.claims.scope).includes('openid')) {
      throw new OAuthError(
        'insufficient_scope',
        'The access token lacks the openid scope',
        403,
        {
          'www-authenticate':
            'Bearer error="insufficient_scope", scope="openid"',
        },
      );
    }
    return userInfoOf(live.user, live.claims.scope) as UserInfoResponse;
  };
  app.decorateRequest('liveAccess', undefined);
  // Every request's header or form field is checked in full, then its token.
  const userinfoGuard: preHandlerAsyncHookHandler = async (request) => {
    const live = await provider.accessCheck.live(bearerToken(request));
    if (!live) throw invalidToken();
    request.liveAccess = live;
  };
  // The answer is returned rather than passed to reply.send(): a returned `reply` is a thenable
  // that Fastify waits on, with an end-of-stream listener on each response.
  const userinfo = (request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers(NO_STORE);
    return userinfoOf(request.liveAccess);
  };
  const userinfoRoute = {
    schema: { hide: true, response: { 200: UserInfoResponse } },
    preHandler: userinfoGuard,
  };
  app.get('/oauth/userinfo', userinfoRoute, userinfo);
  app.post('/oauth/userinfo', userinfoRoute, userinfo);

  app.post('/oauth/revoke', { schema }, async (request, reply) => {
    const body = formBody(request.body, request.headers['content-type']);
    const { app: client } = await provider.clients.authenticate(
      request.headers.authorization,
      body,
    );
    const token = required(body, 'token');
    param(body, 'token_type_hint');
    await provider.introspection.revoke(client, token);
    return reply.headers(NO_STORE).code(200).send();
  });

  app.post(
    '/oauth/introspect',
    { schema: { hide: true, response: { 200: IntrospectionResponse } } },
    async (request, reply) => {
      const body = formBody(request.body, request.headers['content-type']);
      const client = await provider.clients.authenticate(
        request.headers.authorization,
        body,
      );
      // A public client holds no credential, so it cannot be trusted with other parties' token facts.
      if (client.method === 'none')
        throw new OAuthError(
          'invalid_client',
          'Introspection requires a confidential client',
          401,
        );
      const token = required(body, 'token');
      param(body, 'token_type_hint');
      void reply.headers(NO_STORE);
      return provider.introspection.introspect(token, client.app.clientId);
    },
  );
}
