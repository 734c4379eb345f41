/** The tables of second factors, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

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

export interface SecondFactorTables {
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
}
