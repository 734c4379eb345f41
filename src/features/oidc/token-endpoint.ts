import type { Caller } from '../../platform/http/typed-scope.js';
import {
  throttledExchange,
  type ExchangeFailure,
  type RateLimiter,
} from '../limits/index.js';
import type { TokenResponse } from './contract.js';
import type { ClientAuthenticator } from './client-auth.js';
import type { DeviceGrant } from './device-grant.js';
import { DEVICE_GRANT, type TokenGrants } from './grants.js';
import { OAuthError } from './oauth-error.js';
import { required, type Params } from './params.js';

export const KNOWN_GRANTS: ReadonlySet<string> = new Set([
  'authorization_code',
  'refresh_token',
  'client_credentials',
  DEVICE_GRANT,
]);
/** Errors that are part of a normal device poll, not failures worth throttling. */
const POLLING = new Set(['authorization_pending', 'slow_down']);

/**
 * How a failed token request counts against the v1 API's exchange limits: a wrong secret, code
 * or verifier is a guess; a device still waiting or a client racing itself is not; faults
 * are neither counted nor turned into 429.
 */
function tokenFailure(err: unknown): ExchangeFailure {
  if (!(err instanceof OAuthError) || err.status >= 500 || err.status === 429)
    return 'fault';
  return err.benign || POLLING.has(err.error) ? 'held' : 'guess';
}

/**
 * The token endpoint's use case (docs/api.md §12.4): client authentication, then the grant. Failures
 * count per (client, address) with a per-client ceiling, like the v1 API's exchange, counted
 * before they are judged; a valid request is never refused because of earlier failures.
 */
export class TokenEndpoint {
  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly grants: TokenGrants,
    private readonly deviceGrant: DeviceGrant,
    private readonly limiter: RateLimiter,
  ) {}

  async answer(
    authorization: string | undefined,
    body: Params,
    caller: Caller,
  ): Promise<TokenResponse> {
    const grantType = required(body, 'grant_type');
    const claimed = this.clients.claimedId(authorization, body) ?? '';
    return throttledExchange(
      this.limiter,
      claimed,
      caller.ip,
      async () => {
        const { app: client } = await this.clients.authenticate(
          authorization,
          body,
        );
        if (!KNOWN_GRANTS.has(grantType))
          throw new OAuthError(
            'unsupported_grant_type',
            'This grant type is not supported',
          );
        if (!client.grantTypes.includes(grantType))
          throw new OAuthError(
            'unauthorized_client',
            'This client may not use this grant type',
          );
        if (grantType === 'authorization_code')
          return this.grants.authorizationCode(client, body, caller);
        if (grantType === 'refresh_token')
          return this.grants.refreshToken(client, body, caller);
        if (grantType === 'client_credentials')
          return this.grants.clientCredentials(client, body);
        return this.deviceGrant.redeem(client, body, caller);
      },
      tokenFailure,
    );
  }
}
