import type { FastifyInstance } from 'fastify';
import { allowedScopes } from '../authorize-rules.js';
import { splitScope } from '../../apps/index.js';
import { callerOf } from '../../../platform/http/typed-scope.js';
import { DEVICE_GRANT } from '../grants.js';
import {
  NO_STORE,
  formBody,
  registerOAuthErrors,
} from '../http/http-errors.js';
import { OAuthError } from '../oauth-error.js';
import { param } from '../params.js';
import { DeviceAuthorizationResponse } from '../contract.js';
import type { OidcRouteDeps } from '../http/route-deps.js';

/** The scope a device request is granted: what was asked, within the client's allowed scopes; `openid` when omitted. */
function deviceScope(
  requested: string | undefined,
  appScopes: readonly string[],
): string {
  if (requested === undefined) return 'openid';
  const names = splitScope(requested);
  const allowed = allowedScopes({ scopes: appScopes });
  if (names.length === 0 || !names.every((n) => allowed.has(n)))
    throw new OAuthError(
      'invalid_scope',
      'The requested scope is not allowed for this client',
    );
  return names.join(' ');
}

/**
 * RFC 8628 §3.1–3.3 over the v1 API's device codes: the same 6-digit user codes, the `/device`
 * page and its approval. Confidential clients authenticate; public ones name themselves.
 */
export async function deviceAuthorizationRoutes(
  app: FastifyInstance,
  { services, provider }: OidcRouteDeps,
) {
  registerOAuthErrors(app);
  app.post(
    '/oauth/device_authorization',
    { schema: { hide: true, response: { 200: DeviceAuthorizationResponse } } },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      const body = formBody(request.body, request.headers['content-type']);
      const { app: client } = await provider.clients.authenticate(
        request.headers.authorization,
        body,
      );
      if (!client.grantTypes.includes(DEVICE_GRANT))
        throw new OAuthError(
          'unauthorized_client',
          'This client may not use the device grant',
        );
      const scope = deviceScope(param(body, 'scope'), client.scopes);
      const started = await services.device.start(
        client.clientId,
        callerOf(request),
        scope,
      );
      const answer: DeviceAuthorizationResponse = {
        device_code: started.device_code,
        user_code: started.user_code,
        verification_uri: started.verification_uri,
        verification_uri_complete: started.verification_uri_complete,
        expires_in: started.expires_in,
        interval: started.interval,
      };
      return reply.send(answer);
    },
  );
}
