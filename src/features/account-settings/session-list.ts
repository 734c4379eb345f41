import { fail } from '../../errors/index.js';
import type { Config } from '../../config/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Language } from '../../platform/i18n/language.js';
import type { User } from '../accounts/index.js';
import { builtInAppName, type AppRepo } from '../apps/index.js';
import type { AuditLog } from '../audit/index.js';
import type { RefreshTokenRepo } from '../oidc/index.js';
import type { SignIns } from '../sessions/index.js';
import type { SessionView } from './contract.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);
/** Ids of OAuth refresh families in the session list, apart from the account center's own sessions. */
const OAUTH_PREFIX = 'oauth:';
/** At most this many sessions of each kind are listed. */
const LIST_LIMIT = 200;

/** What the session list reads and ends sessions with. */
export interface SessionListDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly apps: AppRepo;
    readonly refreshTokens: RefreshTokenRepo;
  };
  readonly config: Pick<Config, 'centerAppId' | 'gameAppId' | 'siteNames'>;
}

/**
 * A person's sessions as /account and the console list them, and ending one: the account
 * center's own sign-ins and the OAuth refresh families.
 */
export class SessionList {
  constructor(private readonly ctx: SessionListDeps) {}

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
  private async appNames(
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
  private async endFamily(
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
}
