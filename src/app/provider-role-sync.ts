/**
 * The upstream feature's RoleSync port over the accounts-level write: a provider's role map
 * changes a user's roles as an administrator's change does (one write, one
 * `user.roles_changed` event, one `user.roles` audit entry), with `provider:<id>` as actor.
 * The last administrator keeps `admin` even when a map would take it.
 */
import type { AuditLog } from '../features/audit/index.js';
import type { UserRepo } from '../features/accounts/index.js';
import { userEvent } from '../features/moderation/index.js';
import type { RoleChange, RoleSync } from '../features/upstream/index.js';

const ADMIN_ROLE = 'admin';

export function providerRoleSync(
  users: UserRepo,
  audit: AuditLog,
  now: () => number,
): RoleSync {
  return {
    async apply(userId, change, actor): Promise<RoleChange> {
      const user = await users.findById(userId);
      if (!user) return { add: [], remove: [] };
      const add = [...new Set(change.add)].filter(
        (r) => !user.roles.includes(r),
      );
      let remove = change.remove.filter((r) => user.roles.includes(r));
      for (let attempt = 0; attempt < 2; attempt++) {
        if (add.length === 0 && remove.length === 0) break;
        const roles = [
          ...user.roles.filter((r) => !remove.includes(r)),
          ...add,
        ];
        const event = userEvent('user.roles_changed', user, {
          roles,
          previous_roles: user.roles,
        });
        if (
          await users.setRolesKeepingOne(userId, roles, ADMIN_ROLE, now(), [
            event,
          ])
        ) {
          await audit.record('user.roles', {
            actor,
            target: user.username,
            detail: { from: user.roles, to: roles },
          });
          return { add, remove };
        }
        // The last administrator: everything else applies, `admin` stays.
        remove = remove.filter((r) => r !== ADMIN_ROLE);
      }
      return { add: [], remove: [] };
    },
  };
}
