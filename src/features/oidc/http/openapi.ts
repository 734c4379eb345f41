import type { FastifyInstance } from 'fastify';

const tags = ['openid connect'];
const FORM =
  'Form-encoded body (application/x-www-form-urlencoded); errors are RFC 6749 `{ error, error_description }`.';

/**
 * How /docs describes the standard endpoints (docs/api.md §12). Their routes declare no body or query
 * schema on purpose: they read form bodies themselves, and a declared schema would be
 * validated on every request. So this adds only what the OpenAPI document reads (tag, summary,
 * description), when each route is added: nothing runs per request.
 */
const DOCS: Record<string, { summary: string; description?: string }> = {
  'GET /.well-known/openid-configuration': {
    summary:
      "OpenID Connect Discovery: the provider's endpoints and capabilities",
  },
  'GET /.well-known/oauth-authorization-server': {
    summary:
      'OAuth 2.0 Authorization Server Metadata (RFC 8414): the same document',
  },
  'GET /oauth/jwks': {
    summary: 'The public keys that sign ID tokens and access tokens (JWK Set)',
  },
  'GET /oauth/authorize': {
    summary:
      'Authorization endpoint: checks the request, then sends the browser to sign-in or consent',
    description:
      'Answers with redirects (or an error page when no callback can be trusted), never JSON.',
  },
  'POST /oauth/authorize': {
    summary: 'Authorization endpoint with form-encoded parameters',
    description: FORM,
  },
  'GET /oauth/authorize/resume': {
    summary: 'Resumes an authorization request after sign-in (signed ticket)',
  },
  'POST /oauth/token': {
    summary:
      'Token endpoint: authorization_code, refresh_token, device_code and client_credentials grants',
    description: FORM,
  },
  'GET /oauth/userinfo': {
    summary:
      "UserInfo: the claims of the access token's user (Bearer token, scope openid)",
  },
  'POST /oauth/userinfo': {
    summary: 'UserInfo, with the access token in the header or the form body',
  },
  'POST /oauth/revoke': {
    summary: 'Revokes a refresh token or an access token (RFC 7009)',
    description: FORM,
  },
  'POST /oauth/introspect': {
    summary: 'Token introspection for confidential clients (RFC 7662)',
    description: FORM,
  },
  'POST /oauth/device_authorization': {
    summary:
      'Starts a device login: device_code, user_code and where to enter it (RFC 8628)',
    description: FORM,
  },
  'GET /oauth/end_session': {
    summary:
      'RP-initiated logout: ends the browser session and returns to the application',
  },
  'POST /oauth/end_session': {
    summary: 'RP-initiated logout with form-encoded parameters',
    description: FORM,
  },
};

/** Lists the standard endpoints in the OpenAPI document; must be called before they are registered. */
export function documentOidcRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const doc = DOCS[`${method} ${route.url}`];
      if (doc) route.schema = { ...route.schema, hide: false, tags, ...doc };
    }
  });
}
