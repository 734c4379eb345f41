/** Application self-management for developers (docs/api.md §4). */
import { Type, type Static } from '@sinclair/typebox';
import {
  DataEnvelope,
  Str,
  StrList,
  View,
} from '../../platform/http/contract.js';

const viewFields = {
  client_id: Type.String(),
  display_name: Type.String(),
  homepage: Type.String(),
  scopes: Type.Array(Type.String()),
  redirect_uris: Type.Array(Type.String()),
  cors_origins: Type.Array(Type.String()),
  client_type: Type.Union([
    Type.Literal('confidential'),
    Type.Literal('public'),
  ]),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  has_secret: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  // docs/api.md §12.2 client fields (RFC 7591 names).
  grant_types: Type.Array(Type.String()),
  token_endpoint_auth_method: Type.String(),
  post_logout_redirect_uris: Type.Array(Type.String()),
  // OpenID Connect Back-Channel Logout 1.0 ('' when none is registered).
  backchannel_logout_uri: Type.String(),
  backchannel_logout_session_required: Type.Boolean(),
  // Roles any one of which admits a person; empty: everyone (docs/api.md, roles).
  required_roles: Type.Array(Type.String()),
};

/** An application as listed and updated: never the secret, only `has_secret`. */
export const AppView = View(viewFields);
export type AppView = Static<typeof AppView>;

/** The answer to create: a confidential client gets its secret here, and only here. */
export const CreatedApp = View({
  ...viewFields,
  client_secret: Type.Optional(Type.String()),
});
export type CreatedApp = Static<typeof CreatedApp>;

const list = (description: string) =>
  Type.Array(Type.String({ maxLength: 4096 }), {
    maxItems: 20,
    minItems: 0,
    description,
  });
const editable = {
  display_name: Type.Optional(Str()),
  homepage: Type.Optional(Str()),
  redirect_uris: Type.Optional(list('redirect_uris')),
  cors_origins: Type.Optional(list('cors_origins')),
  scopes: Type.Optional(StrList(20, 64)),
  // docs/api.md §12.2 client fields.
  grant_types: Type.Optional(StrList(4, 64)),
  token_endpoint_auth_method: Type.Optional(Str(64)),
  post_logout_redirect_uris: Type.Optional(list('post_logout_redirect_uris')),
  backchannel_logout_uri: Type.Optional(Type.String({ maxLength: 4096 })),
  backchannel_logout_session_required: Type.Optional(Type.Boolean()),
};

export const CreateAppBody = Type.Object({
  ...editable,
  display_name: Str(),
  redirect_uris: list('redirect_uris'),
  client_type: Type.Optional(Str()),
  client_id: Type.Optional(Str(64)),
});
export type CreateAppBody = Static<typeof CreateAppBody>;

export const UpdateAppBody = Type.Object({
  client_id: Str(),
  ...editable,
  required_roles: Type.Optional(StrList(20, 64)),
});
export type UpdateAppBody = Static<typeof UpdateAppBody>;

export const ClientIdBody = Type.Object({ client_id: Str() });
export const DisableAppBody = Type.Object({
  client_id: Str(),
  enabled: Type.Optional(Type.Boolean()),
});

export const AppSecret = View({
  client_id: Type.String(),
  client_secret: Type.String(),
});
export type AppSecret = Static<typeof AppSecret>;
export const AppStatusView = View({
  client_id: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
});
export type AppStatusView = Static<typeof AppStatusView>;

export const AppListReply = DataEnvelope(View({ apps: Type.Array(AppView) }));
export const AppReply = DataEnvelope(AppView);
export const CreatedAppReply = DataEnvelope(CreatedApp);
export const AppSecretReply = DataEnvelope(AppSecret);
export const AppStatusReply = DataEnvelope(AppStatusView);

/** An app of the caller an administrator stopped, with the reason (the console shows it to the owner). */
export const AppSuspension = View({
  client_id: Type.String(),
  display_name: Type.String(),
  reason: Type.String(),
  at: Type.Integer(),
});
export type AppSuspension = Static<typeof AppSuspension>;
export const AppSuspensionsReply = DataEnvelope(
  View({ suspensions: Type.Array(AppSuspension) }),
);
