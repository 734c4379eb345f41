import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scopeList, userInfoOf } from '../claims.js';
import type { LiveAccess } from '../token-checks.js';
import { NO_STORE, formBody, registerOAuthErrors } from '../http/http-errors.js';
import { OAuthError, invalidRequest, invalidToken } from '../oauth-error.js';
import { param, required } from '../params.js';
import { fieldsOf, type FormFields } from '../http/form-body.js';
import type { AuthenticatedClient } from '../client-auth.js';
import type { OidcRouteDeps } from '../http/route-deps.js';
import { IntrospectionResponse, UserInfoResponse } from '../contract.js';
import { NOT_CACHED } from '../../../platform/cache/reloading-cache.js';

const BEARER = /^bearer +([A-Za-z0-9\-_.~+/]+=*)$/i;
/** The header as clients send it: the fast path of UserInfo below takes only this spelling. */
const BEARER_PREFIX = 'Bearer ';

/** RFC 6750 §2.1 header, or §2.2 form field on POST; never both. */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const fromBody = request.method === 'POST' && request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')
    ? param(fieldsOf(request.body), 'access_token') : undefined;
  if (header !== undefined) {
    if (fromBody !== undefined) throw invalidRequest('Send the access token once');
    const m = BEARER.exec(header.trim());
    if (!m) throw invalidToken('The Authorization header is not a Bearer token');
    return m[1]!;
  }
  if (fromBody !== undefined) return fromBody;
  throw new OAuthError('invalid_token', 'An access token is required', 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
}

/** UserInfo (OIDC Core §5.3), revocation (RFC 7009), introspection (RFC 7662). */
export async function resourceRoutes(app: FastifyInstance, { provider }: OidcRouteDeps) {
  registerOAuthErrors(app);
  const schema = { hide: true };

  /** The answer for a live token: the person's claims for the token's scope, which must hold `openid`. */
  const userinfoOf = (live: LiveAccess | undefined): UserInfoResponse => {
    if (!live || !live.user) throw invalidToken();
    if (!scopeList(live.claims.scope).includes('openid')) {
      throw new OAuthError('insufficient_scope', 'The access token lacks the openid scope', 403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="openid"' });
    }
    return userInfoOf(live.user, live.claims.scope) as UserInfoResponse;
  };
  // Not async: when the token, its app and its person are in memory (nearly always) the
  // answer is sent without a promise, as `me` does. The answer is returned rather than
  // passed to reply.send(): a returned `reply` is a thenable that Fastify waits on, with an
  // end-of-stream listener on each response.
  const userinfo = (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    // A GET with the header as clients send it, for a token verified before, skips
    // bearerToken()'s syntax check: only well-formed tokens were ever verified, and the check
    // is a regular expression over an 800-character RS256 token (about 1 µs a request).
    const known = request.method === 'GET' && header !== undefined && header.startsWith(BEARER_PREFIX)
      ? provider.accessCheck.liveIfVerified(header.slice(BEARER_PREFIX.length)) : NOT_CACHED;
    const live = known === NOT_CACHED ? provider.accessCheck.live(bearerToken(request)) : known;
    void reply.headers(NO_STORE);
    return live instanceof Promise ? live.then(userinfoOf) : userinfoOf(live);
  };
  const userinfoSchema = { hide: true, response: { 200: UserInfoResponse } };
  app.get('/oauth/userinfo', { schema: userinfoSchema }, userinfo);
  app.post('/oauth/userinfo', { schema: userinfoSchema }, userinfo);

  app.post('/oauth/revoke', { schema }, async (request, reply) => {
    const body = formBody(request.body, request.headers['content-type']);
    const { app: client } = await provider.clients.authenticate(request.headers.authorization, body);
    const token = required(body, 'token');
    param(body, 'token_type_hint');
    await provider.introspection.revoke(client, token);
    return reply.headers(NO_STORE).code(200).send();
  });

  // Not async, as UserInfo: a client that authenticated before asking about one of our
  // access tokens in memory is answered without a promise.
  const introspectFor = (client: AuthenticatedClient, body: FormFields, reply: FastifyReply) => {
    // A public client holds no credential, so it cannot be trusted with other parties' token facts.
    if (client.method === 'none') throw new OAuthError('invalid_client', 'Introspection requires a confidential client', 401);
    const token = required(body, 'token');
    param(body, 'token_type_hint');
    void reply.headers(NO_STORE);
    return provider.introspection.introspect(token, client.app.clientId);
  };
  app.post('/oauth/introspect', { schema: { hide: true, response: { 200: IntrospectionResponse } } }, (request, reply) => {
    const body = formBody(request.body, request.headers['content-type']);
    const client = provider.clients.authenticate(request.headers.authorization, body);
    if (!(client instanceof Promise)) return introspectFor(client, body, reply);
    return client.then((found) => introspectFor(found, body, reply));
  });
}
