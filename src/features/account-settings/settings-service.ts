import { badParam, fail } from '../../errors/index.js';
import { isValidDisplayName, isValidPassword } from '../accounts/index.js';
import { userEvent } from '../moderation/index.js';
import type { SessionView } from './contract.js';
import type { TokenEnvelope } from '../sessions/index.js';
import type { User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Language } from '../../platform/i18n/language.js';
import { passwordChangedNotice } from '../sign-in/index.js';
import type { ReauthProof, ReauthService } from '../reauth/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { SignInHistory } from '../sign-in-history/index.js';
import { publicUser } from '../sessions/index.js';
import { builtInAppName } from '../apps/index.js';
import type { Config } from '../../config/index.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { UserRepo } from '../accounts/index.js';
import type { AppRepo } from '../apps/index.js';
import type { AuditLog } from '../audit/index.js';
import type { MinecraftRepos } from '../minecraft/index.js';
import type { RefreshTokenRepo } from '../oidc/index.js';
import type { PasskeyRepo } from '../second-factor/index.js';
import type { SignIns, TokenService } from '../sessions/index.js';
import type { UpstreamLinkRepo } from '../upstream/index.js';
import type { Logger } from 'pino';

export interface AccountSettingsDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
    readonly apps: AppRepo;
    readonly refreshTokens: RefreshTokenRepo;
    readonly passkeys: PasskeyRepo;
    readonly upstreamLinks: UpstreamLinkRepo;
    readonly minecraft: MinecraftRepos;
  };
  readonly config: Pick<Config, 'centerAppId' | 'gameAppId' | 'siteNames'>;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);
/** Ids of OAuth refresh families in the session list, apart from the account center's own sessions. */
const OAUTH_PREFIX = 'oauth:';
/** At most this many sessions of each kind are listed. */
const LIST_LIMIT = 200;
/** What a deleted account's display name becomes. */
export const DELETED_DISPLAY_NAME = '已注销用户';
/**
 * Tomb-stone name and e-mail of a deleted account: neither matches the formats accepted at
 * sign-up, so they never collide with a real account, and the old ones are free again.
 */
export const tombstone = (uid: number) => ({
  username: `deleted~${uid}`,
  email: `deleted~${uid}`,
});

/** What the signed-in user changes about their own account: name, password, sessions, deletion. */
export class AccountSettingsService {
  constructor(
    private readonly ctx: AccountSettingsDeps,
    private readonly reauth: Pick<ReauthService, 'prove'>,
    /** A deleted account's sign-in history holds addresses: it goes with the account. */
    private readonly signInHistory: Pick<SignInHistory, 'forget'>,
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

  async rename(user: User, displayName: string, caller: Caller) {
    if (!isValidDisplayName(displayName)) throw badParam('display_name');
    const trimmed = displayName.trim();
    await this.ctx.storage.users.update(
      user.id,
      { displayName: trimmed },
      this.ctx.now(),
      [userEvent('user.updated', user, { display_name: trimmed })],
    );
    await this.ctx.audit.record('user.rename', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return publicUser({ ...user, displayName: trimmed });
  }

  /**
   * Sets a new password. By default every other sign-in ends: the cut-off kills every token
   * issued so far (those from before sessions too), and the caller gets a fresh token of its
   * own session in the answer, so only this sign-in goes on.
   */
  async changePassword(
    auth: Authenticated,
    proof: ReauthProof,
    next: string,
    endOthers: boolean,
    caller: Caller,
  ): Promise<TokenEnvelope> {
    const { user, claims } = auth;
    if (!isValidPassword(next)) throw fail('badPassword');
    await this.reauth.prove(auth, proof, caller);
    const passwordHash = await this.ctx.passwords.hash(next);
    const now = this.ctx.now();
    await this.ctx.storage.users.update(
      user.id,
      { passwordHash, ...(endOthers && { tokensValidAfter: now }) },
      now,
      [
        userEvent('user.password_changed', user),
        ...(endOthers
          ? [
              userEvent('user.sessions_revoked', user, {
                cause: 'password_change',
              }),
            ]
          : []),
      ],
    );
    const updated = {
      ...user,
      passwordHash,
      tokensValidAfter: endOthers ? now : user.tokensValidAfter,
    };
    const issued = await this.ctx.tokens.envelope(
      updated,
      claims.app,
      undefined,
      claims.sid,
    );
    if (endOthers) await this.ctx.signIns.markAllEnded(user.id, claims.sid);
    if (claims.sid === undefined)
      await this.ctx.signIns.record(issued.claims, updated, caller);
    else await this.ctx.signIns.extend(claims.sid, issued.claims.exp);
    await this.ctx.audit.record('user.password_change', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
      detail: { ended_other_sessions: endOthers },
    });
    await this.notifyPasswordChange(user, now, caller.language);
    return issued.body;
  }

  /** The owner hears of the change, with the passkeys that still sign in; a mail failure does not undo it. */
  private async notifyPasswordChange(
    user: User,
    at: number,
    language: Language | undefined,
  ): Promise<void> {
    try {
      await this.ctx.mailer.send(
        passwordChangedNotice(
          user,
          await this.ctx.storage.passkeys.listByUser(user.id),
          at,
          language,
        ),
      );
    } catch (err) {
      this.ctx.log.warn(
        { err, uid: user.id },
        'could not queue the password change notice',
      );
    }
  }

  /**
   * Deletes the account: the row stays as a tomb-stone (so ids in the audit trail and apps
   * keep pointing somewhere) with its name, e-mail and display name replaced, password and
   * roles cleared, banned, every token cut off and its apps disabled. The username and the
   * e-mail address are free for a new account. The audit row names only the user id.
   */
  async deleteAccount(
    auth: Authenticated,
    proof: ReauthProof,
    caller: Caller,
  ): Promise<void> {
    const { user } = auth;
    // The center keeps the people who run it: an administrator leaves once another has taken admin away.
    if (user.roles.includes('admin')) throw fail('adminSelfDelete');
    await this.reauth.prove(auth, proof, caller);
    const now = this.ctx.now();
    await this.ctx.storage.users.update(
      user.id,
      {
        ...tombstone(user.id),
        displayName: DELETED_DISPLAY_NAME,
        passwordHash: '!',
        emailVerified: false,
        roles: [],
        banned: true,
        tokensValidAfter: now,
      },
      now,
      [userEvent('user.deleted', user)],
    );
    await this.ctx.signIns.forget(user.id);
    await this.signInHistory.forget(user.id);
    // The subjects linked to it may sign up again, as new people (docs/api.md §14.3).
    await this.ctx.storage.upstreamLinks.removeAllOf(user.id);
    // Its Minecraft profile names are free for others; its launcher tokens die with the ban anyway.
    await this.ctx.storage.minecraft.profiles.removeAllOf(user.id);
    await this.ctx.storage.minecraft.tokens.removeAllOf(user.id);
    for (const app of await this.ctx.storage.apps.listByOwner(user.id)) {
      if (app.status !== 'active') continue;
      await this.ctx.storage.apps.update(
        app.clientId,
        {
          status: 'disabled',
          statusReason: '所有者已注销账号',
          statusChangedAt: now,
        },
        now,
      );
    }
    await this.ctx.audit.record('user.delete', {
      actor: `uid:${user.id}`,
      target: `uid:${user.id}`,
    });
  }
}
