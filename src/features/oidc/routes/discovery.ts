import type { FastifyInstance } from 'fastify';
import { OIDC_SIGNING_ALGS } from '../../../config/index.js';
import { STANDARD_SCOPES } from '../authorize-rules.js';
import { CLAIMS_SUPPORTED } from '../claims.js';
import { ACR_VALUES } from '../requested-claims.js';
import { DEVICE_GRANT } from '../grants.js';
import { registerOAuthErrors } from '../http/http-errors.js';
import type { OidcRouteDeps } from '../http/route-deps.js';

/** OIDC Discovery 1.0 / RFC 8414 metadata: every endpoint on the issuer's origin. */
export function discoveryDocument(
  issuer: string,
  signingAlg: string,
): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    end_session_endpoint: `${issuer}/oauth/end_session`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      DEVICE_GRANT,
      'client_credentials',
    ],
    token_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'none',
    ],
    revocation_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'none',
    ],
    // Introspection tells facts about other parties' tokens: confidential clients only.
    introspection_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
    ],
    code_challenge_methods_supported: ['S256'],
    // RS256 is always listed (OIDC Core §15.1); the configured algorithm is the one new keys use.
    id_token_signing_alg_values_supported: [
      ...new Set(['RS256', signingAlg]),
    ].filter((a) => (OIDC_SIGNING_ALGS as readonly string[]).includes(a)),
    subject_types_supported: ['public'],
    scopes_supported: [...STANDARD_SCOPES],
    claims_supported: [...CLAIMS_SUPPORTED],
    // docs/oidc.md "acr and amr": 1 = one factor, 2 = a second factor too.
    acr_values_supported: [...ACR_VALUES],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    authorization_response_iss_parameter_supported: true,
    claims_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    // Back-Channel Logout 1.0: logout tokens always carry `sid`, the ID tokens' `sid`.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}

/** Discovery (both well-known paths serve one document) and the public keys. */
export async function discoveryRoutes(
  app: FastifyInstance,
  { provider }: OidcRouteDeps,
) {
  registerOAuthErrors(app);
  const body = JSON.stringify(
    discoveryDocument(provider.issuer, provider.signingAlg),
  );
  const schema = { hide: true };
  for (const path of [
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
  ]) {
    app.get(path, { schema }, async (_request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(body),
    );
  }
  app.get('/oauth/jwks', { schema }, async (_request, reply) => {
    const { json } = await provider.keys.jwks();
    // Short cache: a rotation is published to relying parties within a minute.
    return reply
      .type('application/jwk-set+json; charset=utf-8')
      .header('cache-control', 'public, max-age=60')
      .header('access-control-allow-origin', '*')
      .send(json);
  });
}
