import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userClaims, scopeList } from '../../services/oidc/claims.js';
import { NO_STORE, formBody, registerOAuthErrors } from '../http-errors.js';
import { OAuthError, invalidRequest, invalidToken } from '../../services/oidc/oauth-error.js';
import { param, required } from '../../services/oidc/params.js';
import { fieldsOf } from '../form-body.js';
import type { OidcRouteDeps } from '../route-deps.js';
import { UserInfoResponse } from '../../contracts/index.js';

const BEARER = /^bearer +([A-Za-z0-9\-_.~+/]+=*)$/i;

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

  const userinfo = async (request: FastifyRequest): Promise<UserInfoResponse> => {
    const live = await provider.accessCheck.live(bearerToken(request));
    if (!live || !live.user) throw invalidToken();
    const scopes = scopeList(live.claims.scope);
    if (!scopes.includes('openid')) {
      throw new OAuthError('insufficient_scope', 'The access token lacks the openid scope', 403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="openid"' });
    }
    return { sub: String(live.user.id), ...userClaims(live.user, scopes) };
  };
  const userinfoSchema = { hide: true, response: { 200: UserInfoResponse } };
  app.get('/oauth/userinfo', { schema: userinfoSchema }, async (request, reply) => reply.headers(NO_STORE).send(await userinfo(request)));
  app.post('/oauth/userinfo', { schema: userinfoSchema }, async (request, reply) => reply.headers(NO_STORE).send(await userinfo(request)));

  app.post('/oauth/revoke', { schema }, async (request, reply) => {
    const body = formBody(request.body, request.headers['content-type']);
    const { app: client } = await provider.clients.authenticate(request.headers.authorization, body);
    const token = required(body, 'token');
    param(body, 'token_type_hint');
    await provider.introspection.revoke(client, token);
    return reply.headers(NO_STORE).code(200).send();
  });

  app.post('/oauth/introspect', { schema }, async (request, reply) => {
    const body = formBody(request.body, request.headers['content-type']);
    const { method } = await provider.clients.authenticate(request.headers.authorization, body);
    // A public client holds no credential, so it cannot be trusted with other parties' token facts.
    if (method === 'none') throw new OAuthError('invalid_client', 'Introspection requires a confidential client', 401);
    const token = required(body, 'token');
    param(body, 'token_type_hint');
    return reply.headers(NO_STORE).send(await provider.introspection.introspect(token));
  });
}
