import { compactVerify, decodeProtectedHeader, type CryptoKey } from 'jose';
import { isActive } from '../../domain/app-state.js';
import { single, withQuery, type RawParams } from '../../domain/oidc-authorize.js';
import type { AuditLog } from '../audit.js';
import type { AppRepo } from '../../storage/types.js';
import type { BrowserSessions } from './browser-session.js';

/** A published signing key by kid (the current one or an older one still in the JWKS). */
export type PublicKeyLookup = (kid: string) => Promise<{ alg: string; key: CryptoKey } | undefined>;

export type EndSessionAnswer =
  | { redirect: string }
  | { signedOut: true; note?: string }
  | { error: string };

export const END_SESSION_MSG = {
  badHint: 'id_token_hint 无效',
  clientMismatch: 'client_id 与 id_token_hint 不符',
  repeated: '退出请求的参数重复：',
  unregistered: '退出后的跳转地址未在该应用登记，已停留在本页。',
} as const;

/**
 * Who an ID token we issued was for: signature by one of our published keys and our issuer.
 * Its expiry is not checked: RP-Initiated Logout 1.0 §2 lets an expired ID token be the hint.
 */
export async function readIdTokenHint(token: string, keyFor: PublicKeyLookup, issuer: string): Promise<{ sub: string; clientId: string } | undefined> {
  try {
    const { kid } = decodeProtectedHeader(token);
    if (typeof kid !== 'string') return undefined;
    const key = await keyFor(kid);
    if (!key) return undefined;
    const { payload } = await compactVerify(token, key.key, { algorithms: [key.alg] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as { iss?: unknown; sub?: unknown; aud?: unknown; azp?: unknown };
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    const clientId = typeof claims.azp === 'string' ? claims.azp : aud;
    if (claims.iss !== issuer || typeof claims.sub !== 'string' || typeof clientId !== 'string') return undefined;
    return { sub: claims.sub, clientId };
  } catch {
    return undefined;
  }
}

/**
 * RP-Initiated Logout 1.0: ends the person's session at the center (the session token is
 * revoked, so the pages are signed out too), then goes back to the client's registered
 * post-logout address with `state`, or shows the signed-out page.
 */
export class EndSession {
  constructor(
    private readonly apps: AppRepo,
    private readonly sessions: BrowserSessions,
    private readonly keyFor: PublicKeyLookup,
    private readonly issuer: string,
    private readonly audit: AuditLog,
  ) {}

  async handle(params: RawParams, cookieHeader: string | undefined, ip: string): Promise<EndSessionAnswer> {
    const v: Record<string, string | undefined> = {};
    for (const name of ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id']) {
      const value = single(params, name);
      if (typeof value === 'object') return { error: END_SESSION_MSG.repeated + name };
      v[name] = value;
    }
    let clientId = v.client_id;
    if (v.id_token_hint !== undefined) {
      const hint = await readIdTokenHint(v.id_token_hint, this.keyFor, this.issuer);
      if (!hint) return { error: END_SESSION_MSG.badHint };
      if (clientId !== undefined && clientId !== hint.clientId) return { error: END_SESSION_MSG.clientMismatch };
      clientId = hint.clientId;
    }
    const ended = await this.sessions.end(cookieHeader);
    if (ended) await this.audit.record('oidc.end_session', { actor: ended.user.username, ip, target: clientId ?? null });

    const target = v.post_logout_redirect_uri;
    if (target === undefined) return { signedOut: true };
    const app = clientId === undefined ? undefined : await this.apps.findById(clientId);
    if (!app || !isActive(app.status) || !app.postLogoutRedirectUris.includes(target)) return { signedOut: true, note: END_SESSION_MSG.unregistered };
    return { redirect: withQuery(target, { state: v.state }) };
  }
}
