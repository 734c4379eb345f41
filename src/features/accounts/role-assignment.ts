import { badParam, fail } from '../../errors/index.js';
import { userEvent } from '../moderation/index.js';
import { isValidRole } from './account-rules.js';
import type { User, UserRepo } from './repository.js';

export const ADMIN_ROLE = 'admin';
/** The most roles one person holds. */
export const MAX_ROLES_PER_USER = 20;

/** Who changes the roles: shown in the audit trail, and `uid` when it is a signed-in person. */
export interface RoleActor {
  /** `username`, `cli`, `app:<id>`, `provider:<id>`…; null when unknown. */
  name: string | null;
  uid?: number;
  ip?: string | null;
}

/** The audit trail, as much of it as this use case writes. */
export interface RoleAudit {
  record(
    action: string,
    entry: {
      actor?: string | null;
      ip?: string | null;
      target?: string | null;
      detail?: Record<string, unknown>;
    },
  ): Promise<void>;
}

export interface RoleAssignmentDeps {
  readonly storage: { readonly users: UserRepo };
  readonly now: () => number;
  readonly audit: RoleAudit;
}

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((r) => b.includes(r));

/**
 * The one place a person's roles are replaced, whoever asks (the admin API, the CLI, another
 * account's role map): names are checked, a name the catalogue lacks joins it with the write,
 * an administrator never removes `admin` from themselves, the last administrator keeps it,
 * and a change is audited and announced once (`user.roles_changed`). Nothing is written when
 * the roles stay the same.
 */
export class RoleAssignment {
  constructor(private readonly ctx: RoleAssignmentDeps) {}

  async setRoles(
    userId: number,
    roles: readonly string[],
    actor: RoleActor,
  ): Promise<User> {
    if (roles.length > MAX_ROLES_PER_USER || !roles.every(isValidRole))
      throw badParam('roles');
    const unique = [...new Set(roles)];
    const user = await this.ctx.storage.users.findById(userId);
    if (!user) throw fail('unknownUser');
    if (sameRoles(unique, user.roles)) return user;
    if (
      actor.uid === user.id &&
      user.roles.includes(ADMIN_ROLE) &&
      !unique.includes(ADMIN_ROLE)
    )
      throw fail('selfDemote');
    const now = this.ctx.now();
    const changed = await this.ctx.storage.users.setRolesKeepingOne(
      user.id,
      unique,
      ADMIN_ROLE,
      now,
      [
        userEvent('user.roles_changed', user, {
          roles: unique,
          previous_roles: user.roles,
        }),
      ],
    );
    if (!changed) throw fail('lastAdmin');
    await this.ctx.audit.record('user.roles', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: user.username,
      detail: { from: user.roles, to: unique },
    });
    return { ...user, roles: unique, updatedAt: now };
  }
}
