/** User administration for role admin (docs/api.md §8). */
import { Type, type Static } from '@sinclair/typebox';
import {
  DataEnvelope,
  PageParam,
  Str,
  StrList,
  View,
} from '../../platform/http/contract.js';

/** A user as the admin API lists it. */
export const AdminUserView = View({
  uid: Type.Integer(),
  username: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  banned: Type.Boolean(),
});
export type AdminUserView = Static<typeof AdminUserView>;

export const UserSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  page: PageParam,
});
export const UserPage = View({
  users: Type.Array(AdminUserView),
  total: Type.Integer(),
});
export type UserPage = Static<typeof UserPage>;
export const UserPageReply = DataEnvelope(UserPage);

/** `reason` and `until` (ISO-8601, in the future) apply to a ban; an unban ignores them (docs/api.md §15.1). */
export const BanBody = Type.Object({
  username: Str(256),
  banned: Type.Boolean(),
  reason: Type.Optional(Str(2048)),
  until: Type.Optional(Str(64)),
});
export const RolesBody = Type.Object({
  username: Str(256),
  roles: StrList(20, 64),
});
export const AdminUserReply = DataEnvelope(AdminUserView);

/**
 * A role of the catalogue: `player` and `admin` always, and every role some user holds (its
 * display names are the name itself until an administrator writes others).
 */
export const RoleView = View({
  name: Type.String(),
  display_name: Type.String(),
  display_name_en: Type.String(),
  description: Type.String(),
  members: Type.Integer(),
  builtin: Type.Boolean(),
});
export type RoleView = Static<typeof RoleView>;
export const RoleListReply = DataEnvelope(
  View({ roles: Type.Array(RoleView) }),
);
export const RoleReply = DataEnvelope(View({ role: RoleView }));

/** Create or update; fields left out keep their value (a new role: the name, no description). */
export const RoleBody = Type.Object({
  name: Str(64),
  display_name: Type.Optional(Type.String({ maxLength: 256 })),
  display_name_en: Type.Optional(Type.String({ maxLength: 256 })),
  description: Type.Optional(Type.String({ maxLength: 2048 })),
});
export const RoleNameBody = Type.Object({ name: Str(64) });
export const RoleMembersQuery = Type.Object({ name: Str(64) });
export const RoleMembersReply = DataEnvelope(
  View({ users: Type.Array(AdminUserView) }),
);
