/** The RFC 7591 client fields of docs/api.md §12.2 as pure rules: grants, token endpoint auth method, logout callbacks. */
import { MAX_REDIRECT_URIS } from './app-rules.js';
import { accept, refuse, type Outcome } from '../../errors/outcome.js';
import { isValidRedirectUri } from './redirect-uris.js';
import { refusedTarget } from '../../platform/net/guarded-post.js';

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  DEVICE_GRANT_TYPE,
] as const;
export const DEFAULT_GRANT_TYPES = ['authorization_code', 'refresh_token'];
export const AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'none',
] as const;

export interface ClientFieldsInput {
  grant_types?: string[];
  token_endpoint_auth_method?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
}

export interface ClientFields {
  grantTypes?: string[];
  tokenEndpointAuthMethod?: string;
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired?: boolean;
}

/** The auth methods a client type may register: a secret for confidential clients, none for public ones. */
export function authMethodsFor(clientType: string): readonly string[] {
  return clientType === 'public'
    ? ['none']
    : ['client_secret_basic', 'client_secret_post'];
}

/**
 * Back-Channel Logout 1.0 §2.2: an absolute http(s) address, under the redirect_uris rules
 * (https, or http on a loopback host), since the center posts logout tokens to it.
 */
export function isBackchannelLogoutUri(uri: string): boolean {
  return (
    (uri.startsWith('https://') || uri.startsWith('http://')) &&
    isValidRedirectUri(uri)
  );
}

/**
 * Validates the client fields given (on create, defaults fill the rest): known grants only,
 * `client_credentials` only for confidential clients, the auth method of the client type,
 * logout callbacks under the redirect_uris rules, and a back-channel address the delivery
 * loop would post to: the same refusedTarget decides both, so no client registers an address
 * that every logout token would be refused at (internal unless `allowPrivate`,
 * WEBHOOK_ALLOW_PRIVATE).
 */
export function checkClientFields(
  input: ClientFieldsInput,
  clientType: string,
  creating: boolean,
  allowPrivate = false,
): Outcome<ClientFields> {
  const out: ClientFields = {};
  if (input.grant_types !== undefined || creating) {
    const grants = [...new Set(input.grant_types ?? DEFAULT_GRANT_TYPES)];
    if (
      grants.length === 0 ||
      !grants.every((g) => (GRANT_TYPES as readonly string[]).includes(g))
    )
      return refuse('badParam', 'grant_types');
    if (clientType !== 'confidential' && grants.includes('client_credentials'))
      return refuse('badParam', 'grant_types');
    out.grantTypes = grants;
  }
  if (input.token_endpoint_auth_method !== undefined || creating) {
    const method =
      input.token_endpoint_auth_method ?? authMethodsFor(clientType)[0]!;
    if (!authMethodsFor(clientType).includes(method))
      return refuse('badParam', 'token_endpoint_auth_method');
    out.tokenEndpointAuthMethod = method;
  }
  if (input.post_logout_redirect_uris !== undefined || creating) {
    const uris = input.post_logout_redirect_uris ?? [];
    if (uris.length > MAX_REDIRECT_URIS)
      return refuse('badParam', 'post_logout_redirect_uris');
    if (!uris.every(isValidRedirectUri)) return refuse('badRedirectUriFormat');
    out.postLogoutRedirectUris = [...new Set(uris)];
  }
  if (input.backchannel_logout_uri !== undefined) {
    if (input.backchannel_logout_uri !== '') {
      if (!isBackchannelLogoutUri(input.backchannel_logout_uri))
        return refuse('badBackchannelLogoutUri');
      if (refusedTarget(new URL(input.backchannel_logout_uri), allowPrivate))
        return refuse('internalBackchannelLogoutUri');
    }
    out.backchannelLogoutUri = input.backchannel_logout_uri;
  }
  if (input.backchannel_logout_session_required !== undefined)
    out.backchannelLogoutSessionRequired =
      input.backchannel_logout_session_required;
  return accept(out);
}
