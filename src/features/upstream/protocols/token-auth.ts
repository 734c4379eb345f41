/**
 * How the center authenticates at a provider's token endpoint. The administrator's choice wins;
 * otherwise an OpenID provider's discovery says what it takes (`token_endpoint_auth_methods_supported`,
 * whose absence means client_secret_basic, OpenID Connect Discovery §3) and Basic is preferred
 * as the method every provider must accept (RFC 6749 §2.3.1). The plain OAuth 2.0 types keep
 * client_secret_post, which GitHub's, Discord's, QQ's and WeChat's documentation use.
 */
import type { TokenEndpointAuthMethod } from '../repository.js';

export function tokenAuthMethodFor(
  chosen: TokenEndpointAuthMethod | undefined,
  discovered: { token_endpoint_auth_methods_supported?: string[] } | undefined,
): TokenEndpointAuthMethod {
  if (chosen !== undefined) return chosen;
  if (discovered === undefined) return 'client_secret_post';
  const supported = discovered.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic'))
    return 'client_secret_basic';
  return supported.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}
