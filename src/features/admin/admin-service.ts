import { fail } from '../../errors/index.js';
import { RoleAssignment } from '../accounts/index.js';
import { RoleCatalogue } from './role-catalogue.js';
import { adminUserView } from './user-view.js';
import { isoOrNull, userEvent } from '../moderation/index.js';
import { appActor } from '../sessions/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { User, UserRepo, RoleRepo } from '../accounts/index.js';
import type { AppRepo } from '../apps/index.js';
import type { UserPage } from './contract.js';
import { BAN_REASON_MAX, type BanTerms, banEnd } from './ban-terms.js';
import { badParam } from '../../errors/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { AuditLog } from '../audit/index.js';

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

export interface AdminDeps {
  readonly now: () => number;
  readonly passwords: Passwords;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly roles: RoleRepo;
    readonly apps: AppRepo;
  };
}

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
