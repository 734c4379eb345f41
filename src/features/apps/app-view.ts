import { viewStatus } from './app-state.js';
import { toUnixSeconds } from './app-rules.js';
import type { AppView } from './contract.js';
import type { App } from './repository.js';

/** An application as the API and the console show it: never its secret, only whether it has one. */
export function appView(a: App): AppView {
  return {
    client_id: a.clientId,
    display_name: a.displayName,
    homepage: a.homepage,
    scopes: a.scopes,
    redirect_uris: a.redirectUris,
    cors_origins: a.corsOrigins,
    client_type: a.clientType,
    status: viewStatus(a.status),
    has_secret: a.secretHash !== null,
    grant_types: a.grantTypes,
    token_endpoint_auth_method: a.tokenEndpointAuthMethod,
    post_logout_redirect_uris: a.postLogoutRedirectUris,
    backchannel_logout_uri: a.backchannelLogoutUri,
    backchannel_logout_session_required: a.backchannelLogoutSessionRequired,
    required_roles: a.requiredRoles,
    created_at: toUnixSeconds(a.createdAt),
    updated_at: toUnixSeconds(a.updatedAt),
  };
}
