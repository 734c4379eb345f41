/** The tables of the OpenID Connect provider, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

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

export interface OidcTables {
  signing_keys: SigningKeysTable;
  refresh_families: RefreshFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  consents: ConsentsTable;
}
