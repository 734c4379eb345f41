import { fail } from '../../errors/index.js';
import type { SessionView } from './contract.js';
import type { User } from '../accounts/index.js';
import type { Caller, Uses } from '../kit.js';
import type { Language } from '../../platform/i18n/language.js';
import type { ReauthService } from '../reauth/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { SignInHistory } from '../sign-in-history/index.js';
import { builtInAppName } from '../apps/index.js';

export type AccountSettingsDeps = Uses<
  'now' | 'log' | 'tokens' | 'passwords' | 'mailer' | 'audit' | 'signIns',
  | 'users'
  | 'apps'
  | 'refreshTokens'
  | 'passkeys'
  | 'upstreamLinks'
  | 'minecraft',
  'centerAppId' | 'gameAppId' | 'siteNames'
>;

const seconds = (ms: number): number => Math.floor(ms / 1000);
/** Ids of OAuth refresh families in the session list, apart from the account center's own sessions. */
const OAUTH_PREFIX = 'oauth:';
/** At most this many sessions of each kind are listed. */
const LIST_LIMIT = 200;
/** The signed-in user's sessions: listing them and ending one, or all but the current one. */
export class AccountSessions {
  constructor(
    protected readonly ctx: AccountSettingsDeps,
    protected readonly reauth: Pick<ReauthService, 'prove'>,
    /** A deleted account's sign-in history holds addresses: it goes with the account. */
    protected readonly signInHistory: Pick<SignInHistory, 'forget'>,
  ) {}

  /** The user's live sessions, the caller's own marked `current`. */
  async sessions(
    { user, claims }: Authenticated,
    language?: Language,
  ): Promise<SessionView[]> {
    return this.sessionsOf(user, claims.sid, language);
  }

  /**
   * Live sessions of any user (also the admin's user detail): the account center's own
   * sign-ins, then the OAuth refresh families (`kind: "oauth"`), which record no address.
   */
  async sessionsOf(
    user: Pick<User, 'id' | 'tokensValidAfter'>,
    currentSid?: string,
    language?: Language,
  ): Promise<SessionView[]> {
    const [list, families] = await Promise.all([
      this.ctx.signIns.live(user.id, LIST_LIMIT),
      this.ctx.storage.refreshTokens.listLiveFamilies(
        user.id,
        this.ctx.now(),
        user.tokensValidAfter,
        LIST_LIMIT,
      ),
    ]);
    const names = await this.appNames(
      [...list.map((s) => s.app), ...families.map((f) => f.clientId)],
      language,
    );
    const own = list.map(
      (s): SessionView => ({
        id: s.id,
        kind: 'token',
        app: s.app,
        app_name: names.get(s.app) ?? s.app,
        created_at: seconds(s.createdAt),
        last_used_at: seconds(s.lastUsedAt),
        ip: s.ip,
        user_agent: s.userAgent,
        current: s.id === currentSid,
      }),
    );
    const oauth = families.map(
      (f): SessionView => ({
        id: OAUTH_PREFIX + f.familyId,
        kind: 'oauth',
        app: f.clientId,
        app_name: names.get(f.clientId) ?? f.clientId,
        created_at: seconds(f.createdAt),
        last_used_at: seconds(f.lastUsedAt),
        ip: '',
        user_agent: '',
        current: false,
      }),
    );
    return [...own, ...oauth];
  }

  /** The built-in center and game named in the reader's language, registered apps by their own names. */
  protected async appNames(
    ids: string[],
    language?: Language,
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(ids)) {
      const builtIn = builtInAppName(this.ctx.config, id, language);
      if (builtIn !== undefined) names.set(id, builtIn);
      if (names.has(id)) continue;
      const app = await this.ctx.storage.apps.findById(id);
      if (app) names.set(id, app.displayName);
    }
    return names;
  }

  /** Ends one of the user's sessions; someone else's or an unknown id is 404 alike. */
  async endSession(
    owner: Pick<User, 'id' | 'username' | 'tokensValidAfter'>,
    sessionId: string,
    actor: string,
    caller: Caller,
  ): Promise<void> {
    if (sessionId.startsWith(OAUTH_PREFIX))
      return this.endFamily(
        owner,
        sessionId.slice(OAUTH_PREFIX.length),
        actor,
        caller,
      );
    const session = await this.ctx.signIns.find(sessionId);
    if (!session || session.userId !== owner.id || session.endedAt !== null)
      throw fail('unknownSession');
    await this.ctx.signIns.end(session);
    await this.ctx.audit.record('session.end', {
      actor,
      ip: caller.ip,
      target: owner.username,
      detail: { session: sessionId, app: session.app },
    });
  }

  /**
   * Revokes an OAuth refresh family: its refresh tokens are refused at once, and so are the
   * access tokens naming it as `sid` (UserInfo and introspection read the family row).
   * Only a family the list would show can be ended; the revoking UPDATE is conditional, so
   * of two racing calls one gets 404.
   */
  protected async endFamily(
    owner: Pick<User, 'id' | 'username' | 'tokensValidAfter'>,
    familyId: string,
    actor: string,
    caller: Caller,
  ): Promise<void> {
    const now = this.ctx.now();
    const family = await this.ctx.storage.refreshTokens.findFamily(familyId);
    const live =
      family !== undefined &&
      family.userId === owner.id &&
      family.revokedAt === null &&
      family.createdAt > owner.tokensValidAfter &&
      ((await this.ctx.storage.refreshTokens.latestInFamily(familyId))
        ?.expiresAt ?? 0) > now;
    if (
      !live ||
      !(await this.ctx.storage.refreshTokens.revokeFamily(familyId, now))
    )
      throw fail('unknownSession');
    await this.ctx.audit.record('session.end', {
      actor,
      ip: caller.ip,
      target: owner.username,
      detail: { session: OAUTH_PREFIX + familyId, app: family.clientId },
    });
  }

  /** Ends every session but the caller's own, OAuth refresh families included. */
  async endOtherSessions(
    { user, claims }: Authenticated,
    caller: Caller,
  ): Promise<number> {
    const ended = await this.ctx.signIns.endAllOf(user.id, claims.sid);
    const families = await this.ctx.storage.refreshTokens.revokeLiveFamiliesOf(
      user.id,
      this.ctx.now(),
      user.tokensValidAfter,
    );
    await this.ctx.audit.record('session.end_others', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
      detail: { ended, refresh_families: families.length },
    });
    return ended + families.length;
  }
}
