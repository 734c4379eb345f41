/** Table shapes as Kysely sees them. Booleans are 0/1 and lists are JSON text, portable to both backends. */
import type { Generated } from 'kysely';
import type {
  UpstreamProvidersTable,
  UpstreamLinksTable,
  UpstreamFlowsTable,
  SignInsTable,
  SignInAccountsTable,
  MinecraftProfilesTable,
  MinecraftTexturesTable,
  MinecraftTokensTable,
  MinecraftJoinsTable,
  MinecraftSigningKeyTable,
  CaptchaUsesTable,
  InvitesTable,
  WebhookEndpointsTable,
  OutboxTable,
  RolesTable,
} from './schema-community.js';

export type * from './schema-community.js';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  email: string;
  email_lower: string;
  display_name: string;
  password_hash: string;
  email_verified: number;
  roles: string;
  banned: number;
  ban_reason: Generated<string>;
  banned_until: number | null;
  tokens_valid_after: number;
  created_at: number;
  updated_at: number;
}

export interface RevokedTokensTable {
  jti: string;
  user_id: number;
  exp: number;
  revoked_at: number;
}

export interface AppsTable {
  client_id: string;
  owner_id: number;
  display_name: string;
  homepage: string;
  scopes: string;
  redirect_uris: string;
  cors_origins: string;
  client_type: string;
  secret_hash: string | null;
  status: string;
  status_reason: Generated<string>;
  admin_scopes: Generated<string>;
  backchannel_logout_uri: Generated<string>;
  backchannel_logout_session_required: Generated<number>;
  status_changed_at: number | null;
  created_at: number;
  updated_at: number;
  grant_types: Generated<string>;
  token_endpoint_auth_method: Generated<string>;
  post_logout_redirect_uris: Generated<string>;
  /** JSON array of role names, any one of which admits a person; empty: everyone. */
  required_roles: Generated<string>;
}

export interface AuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  scope: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: number;
  used_at: number | null;
  token_jti: string | null;
  token_exp: number | null;
  replayed_at: number | null;
  created_at: number;
  flow: Generated<string>;
  nonce: string | null;
  auth_time: number | null;
  redirect_uri_given: Generated<number>;
  refresh_family: string | null;
  amr: string | null;
  /** OIDC: the center sign-in (sessions.id) that authorized it. */
  session_id: string | null;
}

export interface DeviceCodesTable {
  device_code_hash: string;
  user_code: string;
  client_id: string;
  status: string;
  user_id: number | null;
  interval: number;
  last_poll_at: number | null;
  expires_at: number;
  created_at: number;
  scope: string | null;
}

export interface EmailCodesTable {
  id: Generated<number>;
  email: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor: string | null;
  ip: string | null;
  action: string;
  target: string | null;
  detail: string;
}

export interface SigningKeysTable {
  kid: string;
  generation: number;
  alg: string;
  public_jwk: string;
  private_jwk_enc: string;
  created_at: number;
  retired_at: number | null;
}

export interface RefreshFamiliesTable {
  family_id: string;
  user_id: number;
  client_id: string;
  created_at: number;
  revoked_at: number | null;
  /** The center sign-in (sessions.id) the authorization came from; null for device grants and older rows. */
  session_id: string | null;
  /** 1 when ID tokens name this family as `sid` (scope openid): the client took part in that sign-in. */
  issues_id_tokens: Generated<number>;
}

export interface RefreshTokensTable {
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: number;
  scope: string;
  auth_time: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  /** Set with used_at: the key of the token the rotation that used this one stores last. */
  successor_hash: string | null;
  amr: string | null;
}

export interface ConsentsTable {
  user_id: number;
  client_id: string;
  scopes: string;
  created_at: number;
  updated_at: number;
}

export interface TotpFactorsTable {
  user_id: number;
  secret_enc: string;
  enabled: number;
  last_step: number | null;
  created_at: number;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

export interface PasskeysTable {
  credential_id: string;
  user_id: number;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: string;
  user_id: number | null;
  expires_at: number;
  used_at: number | null;
}

export interface ReauthGrantsTable {
  user_id: number;
  session_key: string;
  purpose: string;
  expires_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  app: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  ended_at: number | null;
  ip: string;
  user_agent: string;
  method: Generated<string>;
}

/** E-mails not yet sent, sealed, and a record of those given up (src/platform/mail/mail-outbox.ts). */
export interface MailOutboxTable {
  id: Generated<number>;
  message_enc: string;
  recipient_domain: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: Generated<number>;
  give_up_at: number;
  last_error: Generated<string>;
  last_attempt_at: number | null;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  revoked_tokens: RevokedTokensTable;
  apps: AppsTable;
  auth_codes: AuthCodesTable;
  device_codes: DeviceCodesTable;
  email_codes: EmailCodesTable;
  audit_log: AuditLogTable;
  signing_keys: SigningKeysTable;
  refresh_families: RefreshFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  consents: ConsentsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  sessions: SessionsTable;
  reauth_grants: ReauthGrantsTable;
  upstream_providers: UpstreamProvidersTable;
  upstream_links: UpstreamLinksTable;
  upstream_flows: UpstreamFlowsTable;
  sign_ins: SignInsTable;
  sign_in_accounts: SignInAccountsTable;
  minecraft_profiles: MinecraftProfilesTable;
  minecraft_textures: MinecraftTexturesTable;
  minecraft_tokens: MinecraftTokensTable;
  minecraft_joins: MinecraftJoinsTable;
  minecraft_signing_key: MinecraftSigningKeyTable;
  captcha_uses: CaptchaUsesTable;
  invites: InvitesTable;
  webhook_endpoints: WebhookEndpointsTable;
  outbox: OutboxTable;
  mail_outbox: MailOutboxTable;
  roles: RolesTable;
}
