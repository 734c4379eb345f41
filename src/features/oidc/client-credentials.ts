import {
  couldBeUserSubject,
  isReservedScopeName,
  splitScope,
  type App,
} from '../apps/index.js';
import type { TokenResponse } from './issuer.js';
import { OAuthError } from './oauth-error.js';
import { param, type Params } from './params.js';
import type { TokenMinter } from './token-minter.js';

/** RFC 6749 §4.4: the client acts for itself; `sub` is its id, no refresh or ID token. */
export async function clientCredentials(
  minter: TokenMinter,
  app: App,
  body: Params,
): Promise<TokenResponse> {
  if (app.clientType !== 'confidential')
    throw new OAuthError(
      'unauthorized_client',
      'Public clients cannot use client_credentials',
    );
  // An id registered before digits-only ids were refused would mint a token whose sub is a person's.
  if (couldBeUserSubject(app.clientId))
    throw new OAuthError(
      'unauthorized_client',
      'This client id cannot be the subject of a token',
    );
  const requested = param(body, 'scope');
  const own = app.scopes.filter(
    (s) => s !== 'openid' && s !== 'offline_access' && !isReservedScopeName(s),
  );
  // Admin scopes an administrator granted are given only when asked for by name (docs/api.md §15.3).
  const allowed = [...own, ...app.adminScopes];
  const scope =
    requested === undefined ? own.join(' ') : splitScope(requested).join(' ');
  if (
    requested !== undefined &&
    (scope === '' || !splitScope(scope).every((s) => allowed.includes(s)))
  ) {
    throw new OAuthError(
      'invalid_scope',
      'The requested scope is not allowed for this client',
    );
  }
  const access = await minter.access({
    sub: app.clientId,
    clientId: app.clientId,
    scope,
  });
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.claims.exp - access.claims.iat,
    scope,
  };
}
