/** Sign-in with other accounts (docs/api.md §14): providers, the finishing steps of a flow, links. */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';
import { ReauthFields } from '../reauth/contract.js';

const nullableString = Type.Union([Type.String(), Type.Null()]);

/** A provider as administrators see it: secrets only as `has_…`. */
export const ProviderView = View({
  id: Type.String(),
  type: Type.String(),
  name: Type.String(),
  client_id: Type.String(),
  has_client_secret: Type.Boolean(),
  has_api_key: Type.Boolean(),
  issuer: nullableString,
  /** The scopes asked for (the configured ones, else the type's). */
  scopes: Type.String(),
  trust_email: Type.Boolean(),
  require_guild: nullableString,
  /** Overrides only; null: the type's documented endpoint. */
  authorization_endpoint: nullableString,
  token_endpoint: nullableString,
  userinfo_endpoint: nullableString,
  openid_endpoint: nullableString,
  api_base: nullableString,
  subject_field: nullableString,
  username_field: nullableString,
  email_field: nullableString,
  /** client_secret_basic or client_secret_post as set; null: chosen from the provider's discovery (Basic first). */
  token_endpoint_auth_method: nullableString,
  /** Upstream membership → center role; {} when the provider gives no roles. */
  role_map: Type.Record(Type.String(), Type.String()),
  /** discord: the server whose roles role_map names. */
  guild_id: nullableString,
  /** oidc: the claim read for role_map; null: `groups`. */
  role_claim: nullableString,
  /** The provider's last failure in the audit trail (a refused answer, memberships unread). */
  last_error: Type.Union([
    View({ at: Type.Integer(), action: Type.String(), message: Type.String() }),
    Type.Null(),
  ]),
  enabled: Type.Boolean(),
  /** What to register at the provider: `{BASE_URL}/login/{id}/callback`. */
  callback_url: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});
export type ProviderView = Static<typeof ProviderView>;
export const ProviderListReply = DataEnvelope(
  View({ providers: Type.Array(ProviderView) }),
);
export const ProviderReply = DataEnvelope(ProviderView);

/** The settings of add and update; on update an empty string clears an optional one. */
const ProviderFields = {
  name: Type.Optional(Str(256)),
  client_id: Type.Optional(Str(1024)),
  client_secret: Type.Optional(Str(2048)),
  api_key: Type.Optional(Str(1024)),
  issuer: Type.Optional(Str(2048)),
  scopes: Type.Optional(Str(2048)),
  trust_email: Type.Optional(Type.Boolean()),
  require_guild: Type.Optional(Str(64)),
  authorization_endpoint: Type.Optional(Str(2048)),
  token_endpoint: Type.Optional(Str(2048)),
  userinfo_endpoint: Type.Optional(Str(2048)),
  openid_endpoint: Type.Optional(Str(2048)),
  api_base: Type.Optional(Str(2048)),
  subject_field: Type.Optional(Str(256)),
  username_field: Type.Optional(Str(256)),
  email_field: Type.Optional(Str(256)),
  token_endpoint_auth_method: Type.Optional(Str(64)),
  /** An object, or its JSON text; its entries are checked by role-map-rules.ts. */
  role_map: Type.Optional(
    Type.Union([
      Type.Record(Type.String({ maxLength: 256 }), Type.Unknown()),
      Str(16384),
    ]),
  ),
  guild_id: Type.Optional(Str(64)),
  role_claim: Type.Optional(Str(256)),
};
export const ProviderAddBody = Type.Object({
  id: Str(64),
  type: Str(32),
  ...ProviderFields,
  enabled: Type.Optional(Type.Boolean()),
});
export type ProviderAddBody = Static<typeof ProviderAddBody>;
export const ProviderUpdateBody = Type.Object({
  id: Str(64),
  ...ProviderFields,
});
export type ProviderUpdateBody = Static<typeof ProviderUpdateBody>;
export const ProviderStatusBody = Type.Object({
  id: Str(64),
  enabled: Type.Boolean(),
});
export const ProviderIdBody = Type.Object({ id: Str(64) });
export const EmptyData = DataEnvelope(View({}));

/** A button of the sign-in pages: `使用 {name} 登录`. */
export const PublicProvider = View({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
});
export type PublicProvider = Static<typeof PublicProvider>;
export const PublicProvidersReply = DataEnvelope(
  View({ providers: Type.Array(PublicProvider) }),
);
export type PublicProviders = Static<typeof PublicProvidersReply>['data'];

/** The page after the provider sent the person back finishes the sign-in with its ticket (and the second factor). */
export const FinishBody = Type.Object({
  ticket: Str(128),
  otp: Type.Optional(Str(64)),
});
/**
 * After signing in to the account that holds the e-mail address, the page links the waiting
 * subject to it, with that account's proof of docs/api.md §10.1 in the same request.
 */
export const LinkExistingBody = Type.Object({
  ticket: Str(128),
  ...ReauthFields,
});
export const LinkedData = View({
  provider: Type.String(),
  provider_name: Type.String(),
});
export type LinkedData = Static<typeof LinkedData>;
export const LinkedReply = DataEnvelope(LinkedData);

/** One linked account on /account and in the admin's user detail. */
export const LinkView = View({
  provider: Type.String(),
  provider_name: Type.String(),
  provider_type: Type.String(),
  display_name: Type.String(),
  avatar_url: Type.String(),
  linked_at: Type.Integer(),
  last_used_at: Type.Union([Type.Integer(), Type.Null()]),
});
export type LinkView = Static<typeof LinkView>;
export const AccountLinksData = View({
  links: Type.Array(LinkView),
  /** Enabled providers, for the link buttons. */
  providers: Type.Array(PublicProvider),
  /** Without a password, the person proves themselves by signing in with a linked provider again. */
  has_password: Type.Boolean(),
});
export type AccountLinksData = Static<typeof AccountLinksData>;
export const AccountLinksReply = DataEnvelope(AccountLinksData);

const Proof = {
  current_password: Type.Optional(Str()),
  otp: Type.Optional(Str(64)),
};
export const AccountLinkBody = Type.Object({
  provider: Str(64),
  next: Type.Optional(Str(2048)),
  ...Proof,
});
export const AccountUnlinkBody = Type.Object({ provider: Str(64), ...Proof });
export const AccountReauthBody = Type.Object({
  provider: Str(64),
  next: Type.Optional(Str(2048)),
});
/** Where the browser goes to continue at the provider. */
export const FlowUrlReply = DataEnvelope(View({ url: Type.String() }));
export type FlowUrl = Static<typeof FlowUrlReply>['data'];

export const AdminLinksQuery = Type.Object({ username: Str(256) });
export const AdminLinksReply = DataEnvelope(
  View({ links: Type.Array(LinkView) }),
);
export type AdminLinks = Static<typeof AdminLinksReply>['data'];
export const AdminUnlinkBody = Type.Object({
  username: Str(256),
  provider: Str(64),
});
