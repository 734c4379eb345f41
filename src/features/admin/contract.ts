/** User administration and the audit trail for role admin (docs/api.md §8). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, StrList, View } from '../../platform/http/contract.js';

/** A user as the admin API lists it. */
export const AdminUserView = View({
  uid: Type.Integer(), username: Type.String(), display_name: Type.String(), email: Type.String(),
  email_verified: Type.Boolean(), roles: Type.Array(Type.String()), banned: Type.Boolean(),
});
export type AdminUserView = Static<typeof AdminUserView>;

/** `page` of a listing: 1 when absent or empty, else a whole number from 1 to 1 000 000. */
export const PageParam = Type.Optional(Type.String({ pattern: '^(0*[1-9][0-9]{0,5}|0*1000000|)$' }));
export const pageNumber = (page: string | undefined): number => (page ? Number(page) : 1);

export const UserSearchQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 256 })), page: PageParam });
export const UserPage = View({ users: Type.Array(AdminUserView), total: Type.Integer() });
export type UserPage = Static<typeof UserPage>;
export const UserPageReply = DataEnvelope(UserPage);

/** `reason` and `until` (ISO-8601, in the future) apply to a ban; an unban ignores them (docs/api.md §15.1). */
export const BanBody = Type.Object({ username: Str(256), banned: Type.Boolean(), reason: Type.Optional(Str(2048)), until: Type.Optional(Str(64)) });
export const RolesBody = Type.Object({ username: Str(256), roles: StrList(20, 64) });
export const AdminUserReply = DataEnvelope(AdminUserView);

export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 256 })), actor: Type.Optional(Type.String({ maxLength: 256 })),
  target: Type.Optional(Type.String({ maxLength: 2048 })), page: PageParam,
  /** Time range, unix seconds, both ends included; empty means open. */
  from: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })), to: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })),
});
const nullableString = Type.Union([Type.String(), Type.Null()]);
/** One audit row; times in unix seconds like every other time of the API. */
export const AuditEntryView = View({
  id: Type.Integer(), at: Type.Integer(), actor: nullableString, ip: nullableString,
  action: Type.String(), target: nullableString, detail: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntryView = Static<typeof AuditEntryView>;
export const AuditPage = View({ entries: Type.Array(AuditEntryView), total: Type.Integer() });
export type AuditPage = Static<typeof AuditPage>;
export const AuditPageReply = DataEnvelope(AuditPage);
