import type { Generated } from 'kysely';

/**
 * Tables of sign-in with other accounts, moderation, abuse protection, sign-in history and
 * Minecraft; schema.ts lists them in `Database` beside the core tables.
 */

export interface UpstreamProvidersTable {
  id: string;
  type: string;
  name: string;
  client_id: string;
  client_secret_enc: string | null;
  api_key_enc: string | null;
  issuer: string | null;
  scopes: string | null;
  settings: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface UpstreamLinksTable {
  provider_id: string;
  subject: string;
  user_id: number;
  display_name: string;
  avatar_url: string;
  linked_at: number;
  last_used_at: number | null;
}

export interface UpstreamFlowsTable {
  key_hash: string;
  kind: string;
  provider_id: string;
  browser_hash: string;
  user_id: number | null;
  session_key: string | null;
  next: string;
  payload: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SignInsTable {
  id: Generated<number>;
  user_id: number;
  at: number;
  ip: string;
  user_agent: string;
  method: string;
}

export interface SignInAccountsTable {
  user_id: number;
  notice_enabled: Generated<number>;
  first_sign_in_at: number | null;
}

export interface MinecraftProfilesTable {
  id: string;
  user_id: number;
  name: string;
  name_key: string;
  skin_hash: string | null;
  skin_model: string;
  cape_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface MinecraftTexturesTable {
  hash: string;
  png: string;
  created_at: number;
}

export interface MinecraftTokensTable {
  token_hash: string;
  client_token: string;
  user_id: number;
  profile_id: string | null;
  password_mark: string;
  issued_at: number;
  expires_at: number;
}

export interface MinecraftJoinsTable {
  server_id: string;
  profile_id: string;
  user_id: number;
  ip: string;
  expires_at: number;
}

export interface MinecraftSigningKeyTable {
  id: number;
  public_pem: string;
  private_jwk_enc: string;
  created_at: number;
}

/** A CAPTCHA challenge whose solution was accepted once: a second use is a replay (migration 011). */
export interface CaptchaUsesTable {
  challenge_hash: string;
  expires_at: number;
}

export interface InvitesTable {
  id: string;
  code_hash: string;
  uses: number;
  used: number;
  expires_at: number | null;
  created_by: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string;
  events: string;
  enabled: number;
  secret_enc: string;
  failing_since: number | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  endpoint_id: string | null;
  target_url: string;
  message_id: string;
  event_type: string;
  order_key: string;
  payload: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: Generated<number>;
  last_status_code: number | null;
  last_response: Generated<string>;
  last_attempt_at: number | null;
  created_at: number;
}

/** The role catalogue: names any user may hold, with how the pages show them. */
export interface RolesTable {
  name: string;
  display_name: string;
  display_name_en: string;
  description: Generated<string>;
  builtin: Generated<number>;
  created_at: number;
  updated_at: number;
}
