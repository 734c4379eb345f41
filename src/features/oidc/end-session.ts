import {
  jwtKeyId,
  verifySignature,
  type PublicJwtKey,
} from '../../platform/jwt/jwt.js';
import { isActive } from '../apps/index.js';
import { single, withQuery, type RawParams } from './authorize-rules.js';
import type { AuditLog } from '../audit/index.js';
import type { AppRepo } from '../apps/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { BrowserSessions } from './browser-session.js';
import type { LogoutConfirmations } from './logout-confirmation.js';

/** A published signing key by kid (the current one or an older one still in the JWKS). */
export type PublicKeyLookup = (
  kid: string,
) => Promise<PublicJwtKey | undefined>;

/** What the confirmation page carries to its POST: the request as validated, and the CSRF token. */
export interface LogoutConfirmation {
  csrfToken: string;
  username: string;
  clientId?: string;
  /** Registered for that client; undefined when none was sent or it is not registered. */
  postLogoutRedirectUri?: string;
  state?: string;
}

export type EndSessionAnswer =
  /** `sessionKept`: a cancel, which leaves the session (and its cookie) as it was. */
  | { redirect: string; sessionKept?: true }
  | { signedOut: true; note?: string }
  | { confirm: LogoutConfirmation }
  | { error: string; status?: number };

export const END_SESSION_MSG = {
  badHint: 'id_token_hint 无效',
  clientMismatch: 'client_id 与 id_token_hint 不符',
  repeated: '退出请求的参数重复：',
  unregistered: '退出后的跳转地址未在该应用登记，已停留在本页。',
  staleConfirmation: '退出确认已失效，未退出登录',
} as const;

const PARAMS = [
  'id_token_hint',
  'post_logout_redirect_uri',
  'state',
  'client_id',
] as const;
type Fields = Partial<Record<(typeof PARAMS)[number], string>>;

/**
 * Who an ID token we issued was for: signature by one of our published keys and our issuer.
 * Its expiry is not checked: RP-Initiated Logout 1.0 §2 lets an expired ID token be the hint.
 */
export async function readIdTokenHint(
  token: string,
  keyFor: PublicKeyLookup,
  issuer: string,
): Promise<{ sub: string; clientId: string } | undefined> {
  try {
    const kid = jwtKeyId(token);
    if (kid === undefined) return undefined;
    const key = await keyFor(kid);
    if (!key) return undefined;
    const claims = (await verifySignature(token, key)) as {
      iss?: unknown;
      sub?: unknown;
      aud?: unknown;
      azp?: unknown;
    };
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    const clientId = typeof claims.azp === 'string' ? claims.azp : aud;
    if (
      claims.iss !== issuer ||
      typeof claims.sub !== 'string' ||
      typeof clientId !== 'string'
    )
      return undefined;
    return { sub: claims.sub, clientId };
  } catch {
    return undefined;
  }
}

/**
 * RP-Initiated Logout 1.0: ends the person's session at the center (the session token is
 * revoked, so the pages are signed out too), then goes back to the client's registered
 * post-logout address with `state`, or shows the signed-out page. Only a valid ID token hint
 * naming the signed-in person ends the session at once (§2); anything else, a plain link above
 * all, which the SameSite=Lax cookie rides on, gets the confirmation page (§6), whose POST
 * must carry the session's CSRF token.
 */
export class EndSession {
  constructor(
    private readonly apps: AppRepo,
    private readonly sessions: BrowserSessions,
    private readonly confirmations: LogoutConfirmations,
    private readonly keyFor: PublicKeyLookup,
    private readonly issuer: string,
    private readonly audit: AuditLog,
  ) {}

  async handle(
    params: RawParams,
    cookieHeader: string | undefined,
    ip: string,
  ): Promise<EndSessionAnswer> {
    const read = readFields(params);
    if ('error' in read) return read;
    const v = read.fields;
    let clientId = v.client_id;
    let hintSub: string | undefined;
    if (v.id_token_hint !== undefined) {
      const hint = await readIdTokenHint(
        v.id_token_hint,
        this.keyFor,
        this.issuer,
      );
      if (!hint) return { error: END_SESSION_MSG.badHint };
      if (clientId !== undefined && clientId !== hint.clientId)
        return { error: END_SESSION_MSG.clientMismatch };
      clientId = hint.clientId;
      hintSub = hint.sub;
    }
    const session = await this.sessions.current(cookieHeader);
    const target = await this.registeredTarget(
      clientId,
      v.post_logout_redirect_uri,
    );
    if (session && hintSub !== String(session.user.id)) {
      return {
        confirm: {
          csrfToken: this.confirmations.tokenFor(session),
          username: session.user.username,
          clientId,
          postLogoutRedirectUri: target,
          state: v.state,
        },
      };
    }
    // Signed in with a hint of that person, or not signed in at all (nothing to end).
    if (session) await this.end(session, ip, clientId);
    return this.afterwards(v.post_logout_redirect_uri, target, v.state);
  }

  /** The confirmation page's POST: `confirm` with the session's CSRF token ends it; `cancel` ends nothing. */
  async confirm(
    params: RawParams,
    cookieHeader: string | undefined,
    ip: string,
  ): Promise<EndSessionAnswer> {
    const read = readFields(params, ['csrf_token', 'decision']);
    if ('error' in read) return read;
    const v = read.fields;
    const target = await this.registeredTarget(
      v.client_id,
      v.post_logout_redirect_uri,
    );
    if (v.decision !== 'confirm')
      return {
        redirect:
          target === undefined ? '/' : withQuery(target, { state: v.state }),
        sessionKept: true,
      };
    const session = await this.sessions.current(cookieHeader);
    if (session) {
      if (!this.confirmations.matches(session, v.csrf_token))
        return { error: END_SESSION_MSG.staleConfirmation, status: 403 };
      await this.end(session, ip, v.client_id);
    }
    return this.afterwards(v.post_logout_redirect_uri, target, v.state);
  }

  private async end(
    session: Authenticated,
    ip: string,
    clientId: string | undefined,
  ): Promise<void> {
    await this.sessions.revoke(session);
    await this.audit.record('oidc.end_session', {
      actor: session.user.username,
      ip,
      target: clientId ?? null,
    });
  }

  /** The client's registered post-logout address when it is the one asked for, else undefined. */
  private async registeredTarget(
    clientId: string | undefined,
    asked: string | undefined,
  ): Promise<string | undefined> {
    if (clientId === undefined || asked === undefined) return undefined;
    const app = await this.apps.findById(clientId);
    return app &&
      isActive(app.status) &&
      app.postLogoutRedirectUris.includes(asked)
      ? asked
      : undefined;
  }

  private afterwards(
    asked: string | undefined,
    target: string | undefined,
    state: string | undefined,
  ): EndSessionAnswer {
    if (target !== undefined) return { redirect: withQuery(target, { state }) };
    return asked === undefined
      ? { signedOut: true }
      : { signedOut: true, note: END_SESSION_MSG.unregistered };
  }
}

/** Each parameter once (RFC 6749 §3.1 as the other endpoints); `extra` names the confirmation form's own. */
function readFields(
  params: RawParams,
  extra: readonly string[] = [],
): { fields: Fields & Record<string, string | undefined> } | { error: string } {
  const v: Record<string, string | undefined> = {};
  for (const name of [...PARAMS, ...extra]) {
    const value = single(params, name);
    if (typeof value === 'object')
      return { error: END_SESSION_MSG.repeated + name };
    v[name] = value;
  }
  return { fields: v };
}
