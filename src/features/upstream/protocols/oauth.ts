/**
 * OpenID Connect (`oidc`, `google`, `microsoft`) and the OAuth 2.0 code flows (`oauth2`,
 * `github`, `discord`) through openid-client: discovery, the authorization URL with state,
 * PKCE S256 and nonce, the code exchange and the ID token's checks (signature by the
 * provider's JWKS — asked for with enableNonRepudiationChecks, `iss`, `aud`, `exp`, `nonce`)
 * are the library's. What differs per provider
 * is only where the profile is read (profiles.ts).
 */
import type * as Client from 'openid-client';
import {
  endpointOf,
  ISSUER_TYPES,
  issuerOf,
  scopesOf,
} from '../provider-rules.js';
import type { ProviderRecord, TokenEndpointAuthMethod } from '../repository.js';
import { tokenAuthMethodFor } from './token-auth.js';
import { UPSTREAM_TIMEOUT_MS } from './http.js';
import { oidcProfile, profileOf } from './profiles.js';
import {
  UpstreamError,
  type ActiveProvider,
  type FlowValues,
  type UpstreamProfile,
  type UpstreamProtocol,
} from './types.js';

/**
 * openid-client, loaded at the first flow: the CLI and a service without providers never pay
 * for it, and a start-up does not wait for it.
 */
let loaded: Promise<typeof Client> | undefined;
const openidClient = (): Promise<typeof Client> =>
  (loaded ??= import('openid-client'));

/** Discovered metadata and keys are kept this long per provider version, then read again. */
const CONFIG_TTL_MS = 3600_000;
const isLoopbackHttp = (url: string | undefined) => url?.startsWith('http:');

/** An error of openid-client (or of fetch below it) as a failure of the flow. */
export function asUpstreamError(
  err: unknown,
  client: typeof Client,
): UpstreamError {
  if (err instanceof UpstreamError) return err;
  if (err instanceof client.AuthorizationResponseError) {
    return new UpstreamError(
      err.error === 'access_denied' ? 'denied' : 'provider',
      `authorization response: ${err.error}`,
    );
  }
  if (err instanceof client.ResponseBodyError)
    return new UpstreamError(
      'provider',
      `${err.error}: ${err.error_description ?? ''}`,
    );
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    cause?: unknown;
  };
  if (
    e?.name === 'TypeError' ||
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    e?.code === 'OAUTH_TIMEOUT'
  ) {
    return new UpstreamError('network', e.message ?? 'network error');
  }
  return new UpstreamError('provider', e?.message ?? String(err));
}

export class OAuthProtocol implements UpstreamProtocol {
  private readonly configs = new Map<
    string,
    { config: Promise<Client.Configuration>; at: number }
  >();

  constructor(private readonly now: () => number = Date.now) {}

  async authorizationUrl(p: ActiveProvider, flow: FlowValues): Promise<URL> {
    const client = await openidClient();
    const config = await this.configOf(p, client);
    const oidc = ISSUER_TYPES.has(p.record.type);
    const params: Record<string, string> = {
      redirect_uri: flow.redirectUri,
      scope: scopesOf(p.record).join(' '),
      state: flow.state,
      code_challenge: await client.calculatePKCECodeChallenge(
        flow.codeVerifier,
      ),
      code_challenge_method: 'S256',
      ...(oidc && { nonce: flow.nonce }),
      // A re-authentication asks the provider for a fresh sign-in where the protocol can say so.
      ...(oidc && flow.fresh && { prompt: 'login', max_age: '0' }),
    };
    return client.buildAuthorizationUrl(config, params);
  }

  async complete(
    p: ActiveProvider,
    callback: URL,
    flow: FlowValues,
  ): Promise<UpstreamProfile> {
    const error = callback.searchParams.get('error');
    if (error !== null)
      throw new UpstreamError(
        error === 'access_denied' ? 'denied' : 'provider',
        `the provider answered ${error}`,
      );
    const client = await openidClient();
    const config = await this.configOf(p, client);
    const oidc = ISSUER_TYPES.has(p.record.type);
    let tokens: Awaited<ReturnType<typeof Client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        ...(oidc && { expectedNonce: flow.nonce, idTokenExpected: true }),
      });
    } catch (err) {
      throw asUpstreamError(err, client);
    }
    if (!oidc) return profileOf(p, tokens.access_token);
    const claims = tokens.claims();
    if (!claims) throw new UpstreamError('provider', 'no ID token');
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        info = await client.fetchUserInfo(
          config,
          tokens.access_token,
          claims.sub,
        );
      } catch (err) {
        throw asUpstreamError(err, client);
      }
    }
    return oidcProfile({ ...info, ...claims }, p.record);
  }

  /** Discovery for issuer types, the configured endpoints otherwise; one per provider version. */
  private configOf(
    p: ActiveProvider,
    client: typeof Client,
  ): Promise<Client.Configuration> {
    const key = `${p.record.id}:${p.record.updatedAt}`;
    const hit = this.configs.get(key);
    if (hit && this.now() - hit.at < CONFIG_TTL_MS) return hit.config;
    for (const k of this.configs.keys())
      if (k.startsWith(`${p.record.id}:`)) this.configs.delete(k);
    const config = this.build(p, client).catch((err: unknown) => {
      this.configs.delete(key);
      throw asUpstreamError(err, client);
    });
    this.configs.set(key, { config, at: this.now() });
    return config;
  }

  private async build(
    { record, clientSecret }: ActiveProvider,
    client: typeof Client,
  ): Promise<Client.Configuration> {
    if (ISSUER_TYPES.has(record.type)) {
      const issuer = issuerOf(record) as string;
      const discovered = await client.discovery(
        new URL(issuer),
        record.clientId,
        undefined,
        undefined,
        {
          timeout: UPSTREAM_TIMEOUT_MS / 1000,
          ...(isLoopbackHttp(issuer) && {
            execute: [client.allowInsecureRequests],
          }),
        },
      );
      const checked = withEndpoints(
        client,
        discovered.serverMetadata(),
        record,
        clientSecret,
      );
      // openid-client trusts an ID token from the token endpoint on TLS alone and skips its
      // signature unless told otherwise; docs/api.md §14.2 wants it checked against the JWKS.
      client.enableNonRepudiationChecks(checked);
      return checked;
    }
    return manual(client, record, clientSecret);
  }
}

/**
 * A discovered configuration with any endpoint the administrator overrode replaced, and the
 * client authentication the provider takes (token-auth.ts).
 */
function withEndpoints(
  client: typeof Client,
  metadata: Client.ServerMetadata,
  record: ProviderRecord,
  clientSecret: string | undefined,
): Client.Configuration {
  const s = record.settings;
  // The metadata as discovered, without the helper method openid-client adds to it.
  const { supportsPKCE: _helper, ...discovered } =
    metadata as Client.ServerMetadata & { supportsPKCE?: unknown };
  const meta: Client.ServerMetadata = {
    ...discovered,
    ...(s.authorizationEndpoint && {
      authorization_endpoint: s.authorizationEndpoint,
    }),
    ...(s.tokenEndpoint && { token_endpoint: s.tokenEndpoint }),
    ...(s.userinfoEndpoint && { userinfo_endpoint: s.userinfoEndpoint }),
  };
  const out = new client.Configuration(
    meta,
    record.clientId,
    undefined,
    clientAuth(
      client,
      tokenAuthMethodFor(s.tokenEndpointAuthMethod, discovered),
      clientSecret,
    ),
  );
  out.timeout = UPSTREAM_TIMEOUT_MS / 1000;
  if (
    [meta.issuer, meta.token_endpoint, meta.jwks_uri].some((u) =>
      isLoopbackHttp(u),
    )
  )
    client.allowInsecureRequests(out);
  return out;
}

const clientAuth = (
  client: typeof Client,
  method: TokenEndpointAuthMethod,
  secret: string | undefined,
) =>
  method === 'client_secret_basic'
    ? client.ClientSecretBasic(secret)
    : client.ClientSecretPost(secret);

/** A plain OAuth 2.0 server: the configured (or documented) endpoints, no discovery. */
function manual(
  client: typeof Client,
  record: ProviderRecord,
  clientSecret: string | undefined,
): Client.Configuration {
  const authorization = endpointOf(record, 'authorizationEndpoint') as string;
  const token = endpointOf(record, 'tokenEndpoint') as string;
  // No issuer is announced by these servers; the authorization endpoint's origin stands for it.
  const meta = {
    issuer: new URL(authorization).origin,
    authorization_endpoint: authorization,
    token_endpoint: token,
  };
  const config = new client.Configuration(
    meta,
    record.clientId,
    undefined,
    clientAuth(
      client,
      tokenAuthMethodFor(record.settings.tokenEndpointAuthMethod, undefined),
      clientSecret,
    ),
  );
  config.timeout = UPSTREAM_TIMEOUT_MS / 1000;
  if (isLoopbackHttp(authorization) || isLoopbackHttp(token))
    client.allowInsecureRequests(config);
  return config;
}
