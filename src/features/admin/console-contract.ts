/** The administration console beyond user search: user detail, applications, audit export, dashboard. */
import { Type, type Static } from '@sinclair/typebox';
import {
  DataEnvelope,
  PageParam,
  Str,
  View,
} from '../../platform/http/contract.js';
import { AdminUserView } from './contract.js';
import { AuditEntryView } from '../audit/contract.js';
import { AppView } from '../apps/contract.js';
import { SessionView } from '../account-settings/contract.js';

export const UsernameQuery = Type.Object({
  username: Type.String({ maxLength: 256 }),
});
export const UserDetail = View({
  user: View({
    ...AdminUserView.properties,
    created_at: Type.Integer(),
    /** The ban's reason ('' when none or not banned) and end (unix seconds; null: permanent or not banned). */
    ban_reason: Type.String(),
    banned_until: Type.Union([Type.Integer(), Type.Null()]),
    /** Whether the authenticator is on and how many passkeys there are: what `second_factor/remove` would remove. */
    second_factor: View({ totp: Type.Boolean(), passkeys: Type.Integer() }),
  }),
  sessions: Type.Array(SessionView),
  apps: Type.Array(AppView),
  audit: Type.Array(AuditEntryView),
});
export type UserDetail = Static<typeof UserDetail>;
export const UserDetailReply = DataEnvelope(UserDetail);

export const AdminEndSessionBody = Type.Object({
  username: Str(256),
  id: Str(64),
});
export const UsernameBody = Type.Object({ username: Str(256) });

/** An application as the administrator sees it: with its owner. */
export const AdminAppView = View({
  ...AppView.properties,
  owner: Type.String(),
  owner_uid: Type.Integer(),
  stored_status: Type.String(),
  /** Why an administrator stopped it ('' when none did). */
  status_reason: Type.String(),
  /** Admin API scopes an administrator granted it (docs/api.md §15.3). */
  admin_scopes: Type.Array(Type.String()),
});
export type AdminAppView = Static<typeof AdminAppView>;
export const AppSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  page: PageParam,
});
export const AdminAppPage = View({
  apps: Type.Array(AdminAppView),
  total: Type.Integer(),
});
export type AdminAppPage = Static<typeof AdminAppPage>;
export const AdminAppPageReply = DataEnvelope(AdminAppPage);
export const ClientIdQuery = Type.Object({
  client_id: Type.String({ maxLength: 256 }),
});
export const AdminAppReply = DataEnvelope(AdminAppView);
export const AppAdminScopesBody = Type.Object({
  client_id: Str(256),
  scopes: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 }),
});
export const AppStatusBody = Type.Object({
  client_id: Str(256),
  enabled: Type.Boolean(),
  reason: Str(500),
});

const DayCount = View({ day: Type.String(), count: Type.Integer() });
export const Dashboard = View({
  users_total: Type.Integer(),
  active_apps: Type.Integer(),
  new_users: Type.Array(DayCount),
  sign_ins: Type.Array(DayCount),
  failed_sign_ins: Type.Array(DayCount),
  rate_limited_since_start: Type.Integer(),
  /** Webhook endpoints switched off after failing for 3 days (docs/api.md §15.2): the admins are told here. */
  switched_off_webhooks: Type.Array(
    View({
      id: Type.String(),
      url: Type.String(),
      disabled_at: Type.Integer(),
    }),
  ),
});
export type Dashboard = Static<typeof Dashboard>;
export const DashboardReply = DataEnvelope(Dashboard);
