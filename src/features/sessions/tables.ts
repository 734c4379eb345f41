/** The tables of sign-ins and revoked tokens, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

export interface RevokedTokensTable {
  jti: string;
  user_id: number;
  exp: number;
  revoked_at: number;
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

export interface SessionsTables {
  revoked_tokens: RevokedTokensTable;
  sessions: SessionsTable;
}
