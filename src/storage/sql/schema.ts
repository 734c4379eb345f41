/** Table shapes as Kysely sees them. Booleans are 0/1 and lists are JSON text, portable to both backends. */
import type { Generated } from 'kysely';

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
  created_at: number;
  updated_at: number;
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

export interface Database {
  users: UsersTable;
  revoked_tokens: RevokedTokensTable;
  apps: AppsTable;
  auth_codes: AuthCodesTable;
  device_codes: DeviceCodesTable;
  email_codes: EmailCodesTable;
  audit_log: AuditLogTable;
}
