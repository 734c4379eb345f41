import { badParam, fail } from '../../errors/index.js';
import type {
  AdminAppPage,
  AdminAppView,
  Dashboard,
  UserDetail,
} from './console-contract.js';
import type { App } from '../apps/index.js';
import type { User } from '../accounts/index.js';
import type { AccountEmails } from '../sign-in/index.js';
import type { AccountSettingsService } from '../account-settings/index.js';
import { adminUserView } from './admin-service.js';
import { banOf } from './ban-terms.js';
import { appEvent } from '../moderation/index.js';
import {
  ADMIN_SCOPES,
  appView,
  isAdminScope,
  SUSPENDED,
} from '../apps/index.js';
import { auditView } from '../audit/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Language } from '../../platform/i18n/language.js';
import type { UserRepo } from '../accounts/index.js';
import type { AppRepo } from '../apps/index.js';
import type { AuditLog, AuditRepo } from '../audit/index.js';
import type { WebhookEndpointRepo } from '../moderation/index.js';
import type { PasskeyRepo, SecondFactorRepo } from '../second-factor/index.js';
import type { SessionRepo, SignIns } from '../sessions/index.js';

export interface AdminConsoleDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
    readonly apps: AppRepo;
    readonly audit: AuditRepo;
    readonly sessions: SessionRepo;
    readonly webhooks: WebhookEndpointRepo;
    readonly secondFactors: SecondFactorRepo;
    readonly passkeys: PasskeyRepo;
  };
}

const APP_PAGE_SIZE = 20;
const DETAIL_AUDIT_ROWS = 50;
const DASHBOARD_DAYS = 30;
const DAY_MS = 86_400_000;
const REASON_MAX = 500;

/** Every day of the window, oldest first, with zero where nothing happened. */
function filledDays(
  rows: Array<{ day: string; count: number }>,
  since: number,
  days: number,
) {
  const byDay = new Map(rows.map((r) => [r.day, r.count]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(since + i * DAY_MS).toISOString().slice(0, 10);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

/** The administration console: a user's whole picture, applications, the dashboard. */
export class AdminConsoleService {
  constructor(
    private readonly ctx: AdminConsoleDeps,
    private readonly accounts: Pick<AccountEmails, 'forcePasswordReset'>,
    private readonly settings: Pick<
      AccountSettingsService,
      'sessionsOf' | 'endSession'
    >,
  ) {}

  private async userNamed(username: string): Promise<User> {
    const user = await this.ctx.storage.users.findByUsername(username);
    if (!user) throw fail('unknownUser');
    return user;
  }

  /**
   * Profile, roles, ban, live sessions, apps and the newest audit rows naming the user. An
   * application (docs/api.md §15.3) reads no administrator's, as it acts on none: 403
   * `需要管理员权限`, as its bans and role changes of one get.
   */
  async userDetail(
    username: string,
    forApplication = false,
    language?: Language,
  ): Promise<UserDetail> {
    const user = await this.userNamed(username);
    if (forApplication && user.roles.includes('admin')) throw fail('adminOnly');
    const now = this.ctx.now();
    const [sessions, apps, asTarget, asActor, totp, passkeys] =
      await Promise.all([
        this.settings.sessionsOf(user, undefined, language),
        this.ctx.storage.apps.listByOwner(user.id),
        this.ctx.storage.audit.list(
          { target: user.username },
          0,
          DETAIL_AUDIT_ROWS,
        ),
        this.ctx.storage.audit.list(
          { actor: user.username },
          0,
          DETAIL_AUDIT_ROWS,
        ),
        this.ctx.storage.secondFactors.findTotp(user.id),
        this.ctx.storage.passkeys.listByUser(user.id),
      ]);
    const seen = new Set<number>();
    const audit = [...asTarget.entries, ...asActor.entries]
      .filter((e) => !seen.has(e.id) && seen.add(e.id))
      .sort((a, b) => b.id - a.id)
      .slice(0, DETAIL_AUDIT_ROWS);
    return {
      user: {
        ...adminUserView(user, now),
        created_at: Math.floor(user.createdAt / 1000),
        ...banOf(user, now),
        second_factor: {
          totp: totp?.enabled === true,
          passkeys: passkeys.length,
        },
      },
      sessions,
      apps: apps.map(appView),
      audit: audit.map(auditView),
    };
  }

  async endUserSession(
    username: string,
    sessionId: string,
    actor: string,
    caller: Caller,
  ): Promise<void> {
    const user = await this.userNamed(username);
    await this.settings.endSession(user, sessionId, actor, caller);
  }

  /** Ends every session of the user and mails a reset code to the account's address. */
  async forcePasswordReset(
    username: string,
    actor: string,
    caller: Caller,
  ): Promise<void> {
    const user = await this.userNamed(username);
    await this.accounts.forcePasswordReset(user, caller.language);
    await this.ctx.audit.record('user.force_reset', {
      actor,
      ip: caller.ip,
      target: user.username,
    });
  }

  private async adminAppView(
    app: App,
    owners = new Map<number, string>(),
  ): Promise<AdminAppView> {
    let owner = owners.get(app.ownerId);
    if (owner === undefined) {
      owner =
        (await this.ctx.storage.users.findById(app.ownerId))?.username ?? '';
      owners.set(app.ownerId, owner);
    }
    return {
      ...appView(app),
      owner,
      owner_uid: app.ownerId,
      stored_status: app.status,
      status_reason: app.status === SUSPENDED ? app.statusReason : '',
      admin_scopes: app.adminScopes,
    };
  }

  /** Every application, newest first; `q` matches name, client_id or the owner's username. */
  async searchApps(q: string, page: number): Promise<AdminAppPage> {
    const { apps, total } = await this.ctx.storage.apps.search(
      q.trim(),
      (page - 1) * APP_PAGE_SIZE,
      APP_PAGE_SIZE,
    );
    const owners = new Map<number, string>();
    const views: AdminAppView[] = [];
    for (const app of apps) views.push(await this.adminAppView(app, owners));
    return { apps: views, total };
  }

  async app(clientId: string): Promise<AdminAppView> {
    const app = await this.ctx.storage.apps.findById(clientId);
    if (!app) throw fail('unknownApp');
    return this.adminAppView(app);
  }

  /**
   * Stops or restarts an application. Stopped here it is `suspended`: its tokens and
   * exchanges are refused like a disabled app's, the reason is shown to the owner, and only
   * an administrator can start it again.
   */
  async setAppStatus(
    clientId: string,
    enabled: boolean,
    reason: string,
    actor: string,
    caller: Caller,
  ): Promise<AdminAppView> {
    const why = reason.trim();
    if (why === '' || [...why].length > REASON_MAX)
      throw fail('reasonRequired');
    const now = this.ctx.now();
    const app = await this.ctx.storage.apps.update(
      clientId,
      enabled
        ? { status: 'active', statusReason: '', statusChangedAt: now }
        : { status: SUSPENDED, statusReason: why, statusChangedAt: now },
      now,
      [
        appEvent(enabled ? 'app.enabled' : 'app.disabled', clientId, {
          reason: why,
          by: 'admin',
        }),
      ],
    );
    if (!app) throw fail('unknownApp');
    await this.ctx.audit.record(
      enabled ? 'app.admin_enable' : 'app.admin_disable',
      { actor, ip: caller.ip, target: clientId, detail: { reason: why } },
    );
    return this.adminAppView(app);
  }

  /**
   * Replaces the admin API scopes an application holds (docs/api.md §15.3); an empty list
   * revokes them all. Tokens already issued lose a revoked scope at their next call.
   */
  async setAppAdminScopes(
    clientId: string,
    scopes: readonly string[],
    actor: string,
    caller?: Caller,
  ): Promise<AdminAppView> {
    if (!scopes.every(isAdminScope)) throw badParam('scopes');
    // Kept in the catalogue's order, so the stored list reads the same however it was given.
    const granted = ADMIN_SCOPES.filter((s) => scopes.includes(s));
    const before = await this.ctx.storage.apps.findById(clientId);
    if (!before) throw fail('unknownApp');
    const app = await this.ctx.storage.apps.update(
      clientId,
      { adminScopes: granted },
      this.ctx.now(),
    );
    if (!app) throw fail('unknownApp');
    await this.ctx.audit.record('app.admin_scopes', {
      actor,
      ip: caller?.ip ?? null,
      target: clientId,
      detail: { from: before.adminScopes, to: granted },
    });
    return this.adminAppView(app);
  }

  /** What an operator looks at first, over the last 30 UTC days. */
  async dashboard(rateLimitedSinceStart: number): Promise<Dashboard> {
    const today = Math.floor(this.ctx.now() / DAY_MS) * DAY_MS;
    const since = today - (DASHBOARD_DAYS - 1) * DAY_MS;
    const { users, sessions, audit, apps, webhooks } = this.ctx.storage;
    const [total, created, signIns, failed, active, endpoints] =
      await Promise.all([
        users.count(),
        users.createdPerDay(since),
        sessions.startedPerDay(since),
        audit.countPerDay('login.failure', since),
        apps.listActive(),
        webhooks.list(),
      ]);
    return {
      users_total: total,
      active_apps: active.length,
      new_users: filledDays(created, since, DASHBOARD_DAYS),
      sign_ins: filledDays(signIns, since, DASHBOARD_DAYS),
      failed_sign_ins: filledDays(failed, since, DASHBOARD_DAYS),
      rate_limited_since_start: rateLimitedSinceStart,
      switched_off_webhooks: endpoints
        .filter((e) => !e.enabled && e.disabledAt !== null)
        .map((e) => ({
          id: e.id,
          url: e.url,
          disabled_at: Math.floor(e.disabledAt! / 1000),
        })),
    };
  }
}
