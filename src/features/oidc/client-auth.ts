import { isActive } from '../apps/index.js';
import { isReservedClientId } from '../apps/index.js';
import { matchesHash } from '../../platform/crypto/random.js';
import type { App } from '../apps/index.js';
import type { AppCache } from '../apps/index.js';
import { VerifiedTokens } from '../sessions/index.js';
import { OAuthError, invalidRequest } from './oauth-error.js';
import { param, type Params } from './params.js';

export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface AuthenticatedClient {
  app: App;
  method: AuthMethod;
}

const BASIC = /^basic +([A-Za-z0-9+/=._~-]*)$/i;
/** Basic headers remembered as checked; past this many the oldest is dropped. */
const MAX_REMEMBERED_BASIC = 1_000;

/** A Basic header whose secret matched `secretHash`, the client's stored hash at that time. */
interface CheckedBasic {
  clientId: string;
  secretHash: string;
}

/** Control characters (NUL above all: PostgreSQL text cannot hold it) are in no client id or secret. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** RFC 6749 §2.3.1: id and secret are form-url-encoded before they are joined for Basic. */
function formDecode(v: string): string | undefined {
  try {
    const decoded = decodeURIComponent(v.replace(/\+/g, ' '));
    return CONTROL.test(decoded) ? undefined : decoded;
  } catch {
    return undefined;
  }
}

function basicCredentials(
  header: string,
): { id: string; secret: string } | undefined {
  const m = BASIC.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

/**
 * Client authentication at the token, revocation, introspection and device endpoints
 * (docs/api.md §12.2): each client only with its registered method, secrets compared in constant time,
 * only active registered apps (the service's own ids are not clients). Every failure is
 * `invalid_client` with 401, plus `WWW-Authenticate: Basic` when Basic was tried.
 */
export class ClientAuthenticator {
  /**
   * Basic headers that authenticated, so a client calling again (introspection, the token
   * endpoint) costs a look-up instead of decoding and hashing its secret. A hit counts only
   * while the client's stored secret hash is still the one the secret matched and the client
   * is active with Basic as its method; a new secret or a disabled client misses. Memory only,
   * never stored or logged.
   */
  private readonly checkedBasic = new VerifiedTokens<CheckedBasic>(
    MAX_REMEMBERED_BASIC,
  );

  constructor(
    private readonly apps: Pick<AppCache, 'findById'>,
    private readonly reservedIds: readonly string[],
    private readonly realm: string,
  ) {}

  /** The client id a request names (Basic or the body), before any check; for throttling keys. */
  claimedId(
    authorization: string | undefined,
    body: Params | undefined,
  ): string | undefined {
    const checked =
      authorization === undefined
        ? undefined
        : this.checkedBasic.get(authorization);
    if (checked !== undefined) return checked.clientId;
    if (authorization !== undefined && /^basic\b/i.test(authorization.trim()))
      return basicCredentials(authorization.trim())?.id;
    const v = body?.client_id;
    return typeof v === 'string' && v !== '' && !CONTROL.test(v)
      ? v
      : undefined;
  }

  async authenticate(
    authorization: string | undefined,
    body: Params | undefined,
  ): Promise<AuthenticatedClient> {
    return (
      (await this.checkedBefore(authorization, body)) ??
      this.check(authorization, body)
    );
  }

  /** The client of a Basic header that authenticated before, when nothing changed since. */
  private async checkedBefore(
    authorization: string | undefined,
    body: Params | undefined,
  ): Promise<AuthenticatedClient | undefined> {
    if (authorization === undefined) return undefined;
    const checked = this.checkedBasic.get(authorization);
    // Body credentials beside Basic take the full path, which refuses or matches them.
    if (
      checked === undefined ||
      body?.client_id !== undefined ||
      body?.client_secret !== undefined
    )
      return undefined;
    const app = await this.apps.findById(checked.clientId);
    if (app === undefined || !isActive(app.status)) return undefined;
    if (
      app.tokenEndpointAuthMethod !== 'client_secret_basic' ||
      app.secretHash !== checked.secretHash
    )
      return undefined;
    return { app, method: 'client_secret_basic' };
  }

  private async check(
    authorization: string | undefined,
    body: Params | undefined,
  ): Promise<AuthenticatedClient> {
    const usedBasic =
      authorization !== undefined && /^basic\b/i.test(authorization.trim());
    const fail = (description: string): OAuthError =>
      new OAuthError(
        'invalid_client',
        description,
        401,
        usedBasic ? { 'www-authenticate': `Basic realm="${this.realm}"` } : {},
      );
    const bodyId = param(body, 'client_id');
    const bodySecret = param(body, 'client_secret');

    let clientId: string;
    let secret: string | undefined;
    let method: AuthMethod;
    if (usedBasic) {
      const creds = basicCredentials(authorization!.trim());
      if (!creds || creds.id === '') throw fail('Malformed Basic credentials');
      if (bodySecret !== undefined)
        throw invalidRequest(
          'Only one client authentication method may be used',
        );
      if (bodyId !== undefined && bodyId !== creds.id)
        throw invalidRequest('client_id does not match the Basic credentials');
      ({ id: clientId, secret } = creds);
      method = 'client_secret_basic';
    } else if (bodySecret !== undefined) {
      if (bodyId === undefined) throw fail('client_id is required');
      clientId = bodyId;
      secret = bodySecret;
      method = 'client_secret_post';
    } else {
      if (bodyId === undefined) throw fail('Client authentication is required');
      clientId = bodyId;
      method = 'none';
    }

    const app = isReservedClientId(clientId, this.reservedIds)
      ? undefined
      : await this.apps.findById(clientId);
    if (!app || !isActive(app.status)) throw fail('Unknown or disabled client');
    if (app.tokenEndpointAuthMethod !== method)
      throw fail(
        `This client must authenticate with ${app.tokenEndpointAuthMethod}`,
      );
    if (
      method !== 'none' &&
      (app.secretHash === null || !matchesHash(secret!, app.secretHash))
    )
      throw fail('Client authentication failed');
    if (usedBasic)
      this.checkedBasic.set(authorization!, {
        clientId,
        secretHash: app.secretHash!,
      });
    return { app, method };
  }
}
