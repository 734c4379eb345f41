import { badParam, fail } from '../../errors/index.js';
import { isBanned, RoleAssignment } from '../accounts/index.js';
import { RoleCatalogue } from './role-catalogue.js';
import { adminUserView } from './user-view.js';
import { isoOrNull, userEvent } from '../moderation/index.js';
import { appActor } from '../sessions/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import { type User } from '../accounts/index.js';
import type { AdminUserView, UserPage } from './contract.js';
import type { Caller, Uses } from '../kit.js';

const PAGE_SIZE = 20;

/**
 * An application acting with admin scopes (docs/api.md §15.3) moderates players: it may not
 * touch an administrator's account nor make or unmake one, so a leaked client secret can not
 * become a way to take the center over.
 */
function refuseAppOverAdmins(
  actor: string | null,
  target: User,
  newRoles?: readonly string[],
): void {
  if (actor === null || !actor.startsWith(appActor(''))) return;
  if (target.roles.includes('admin') || newRoles?.includes('admin'))
    throw fail('adminOnly');
}

export interface NewAccount {
  username: string;
  password: string;
  email: string;
  roles: string[];
}

export { adminUserView } from './user-view.js';

/** The reason and end (unix seconds) of a ban in force at `now`; empty and null otherwise. */
export function banOf(
  u: User,
  now: number,
): { ban_reason: string; banned_until: number | null } {
  if (!isBanned(u, now)) return { ban_reason: '', banned_until: null };
  return {
    ban_reason: u.banReason,
    banned_until:
      u.bannedUntil === null ? null : Math.floor(u.bannedUntil / 1000),
  };
}

/** A ban's optional terms as the API and the CLI give them. */
export interface BanTerms {
  reason?: string;
  /** ISO-8601 time with a zone, in the future; absent: permanent. */
  until?: string;
}

const BAN_REASON_MAX = 500;
// A full date and time with its zone: a zoneless time would mean the server's local time.
const ISO_INSTANT =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Whether the date part names a real day: `Date.parse` rolls 02-30 over to March. */
function isCalendarDay(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return (
    m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
  );
}

/** The end of a ban in ms: 400 `参数错误：until` unless an ISO-8601 instant after `now`. */
export function banEnd(until: string | undefined, now: number): number | null {
  if (until === undefined) return null;
  const ms =
    ISO_INSTANT.test(until) && isCalendarDay(until) ? Date.parse(until) : NaN;
  if (!Number.isFinite(ms) || ms <= now) throw badParam('until');
  return ms;
}

export type AdminDeps = Uses<
  'now' | 'passwords' | 'audit',
  'users' | 'roles' | 'apps'
>;

/** User administration shared by the admin API and the CLI. */
export class AdminService {
  private readonly assignment: RoleAssignment;
  /** The role catalogue: list, add or edit, remove. */
  readonly catalogue: RoleCatalogue;

  constructor(private readonly ctx: AdminDeps) {
    this.assignment = new RoleAssignment(ctx);
    this.catalogue = new RoleCatalogue(ctx);
  }

  /** A page of users; for an application (docs/api.md §15.3) without the administrators, as it never acts on them. */
  async searchUsers(
    q: string,
    page: number,
    forApplication = false,
  ): Promise<UserPage> {
    const filter = forApplication ? { withoutRole: 'admin' } : {};
    const { users, total } = await this.ctx.storage.users.search(
      q.trim(),
      (page - 1) * PAGE_SIZE,
      PAGE_SIZE,
      filter,
    );
    const now = this.ctx.now();
    return { users: users.map((u) => adminUserView(u, now)), total };
  }

  /** The user of that name; 404 when there is none. */
  async userNamed(username: string): Promise<User> {
    const user = await this.ctx.storage.users.findByUsername(username);
    if (!user) throw fail('unknownUser');
    return user;
  }

  /** Creates an account with a verified e-mail and the given roles (the CLI's `user create`). */
  async createUser(input: NewAccount, actor: string): Promise<User> {
    const user = await this.ctx.storage.users
      .create(
        {
          username: input.username,
          email: input.email,
          displayName: input.username,
          passwordHash: await this.ctx.passwords.hash(input.password),
          emailVerified: true,
          roles: input.roles,
        },
        this.ctx.now(),
        (created) => [
          userEvent('user.created', created, {
            display_name: created.displayName,
            email: created.email,
          }),
        ],
      )
      .catch((err: unknown) => {
        if (err instanceof UniqueViolation)
          throw fail(err.field === 'email' ? 'emailTaken' : 'usernameTaken');
        throw err;
      });
    await this.ctx.audit.record('user.create', {
      actor,
      target: user.username,
    });
    return user;
  }

  /**
   * Bans (with an optional reason and end) or lifts a ban; the webhook event is written with
   * the change. A ban ends by itself at `until` (isBanned), without another write.
   */
  async setBanned(
    username: string,
    banned: boolean,
    actor: string | null,
    caller?: Caller,
    terms: BanTerms = {},
    actorUid?: number,
  ) {
    const now = this.ctx.now();
    const reason = banned ? (terms.reason ?? '').trim() : '';
    if ([...reason].length > BAN_REASON_MAX) throw badParam('reason');
    const bannedUntil = banned ? banEnd(terms.until, now) : null;
    const user = await this.userNamed(username);
    refuseAppOverAdmins(actor, user);
    if (banned && actorUid === user.id) throw fail('selfBan');
    const event = banned
      ? userEvent('user.banned', user, {
          reason,
          until: isoOrNull(bannedUntil),
        })
      : userEvent('user.unbanned', user);
    await this.ctx.storage.users.update(
      user.id,
      { banned, banReason: reason, bannedUntil },
      now,
      [event],
    );
    const detail = banned
      ? { reason, until: isoOrNull(bannedUntil) }
      : undefined;
    await this.ctx.audit.record(banned ? 'user.ban' : 'user.unban', {
      actor,
      ip: caller?.ip ?? null,
      target: user.username,
      ...(detail && { detail }),
    });
    return adminUserView(
      { ...user, banned, banReason: reason, bannedUntil },
      now,
    );
  }

  /**
   * Reads of users by an application (docs/api.md §15.3) are audited under it, as its bans
   * and role changes are; an administrator's reads are not.
   */
  async recordApplicationRead(
    clientId: string | undefined,
    caller: Caller,
    target: string | null,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    if (clientId === undefined) return;
    await this.ctx.audit.record('admin.users_read', {
      actor: appActor(clientId),
      ip: caller.ip,
      target,
      ...(detail && { detail }),
    });
  }

  /**
   * Replaces the roles (accounts' RoleAssignment holds the rules). `actorUid` is the
   * administrator acting through the API: they may not take `admin` from themselves; nobody
   * (the CLI included) takes it from the last holder.
   */
  async setRoles(
    username: string,
    roles: string[],
    actor: string | null,
    caller?: Caller,
    actorUid?: number,
  ) {
    const user = await this.userNamed(username);
    refuseAppOverAdmins(actor, user, roles);
    const changed = await this.assignment.setRoles(user.id, roles, {
      name: actor,
      ip: caller?.ip ?? null,
      ...(actorUid !== undefined && { uid: actorUid }),
    });
    return adminUserView(changed, this.ctx.now());
  }
}

export { PAGE_SIZE as ADMIN_PAGE_SIZE };
