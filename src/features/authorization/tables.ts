/** The table of authorization codes, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

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

export interface AuthorizationTables {
  auth_codes: AuthCodesTable;
}
