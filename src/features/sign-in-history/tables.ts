/** The tables of the sign-in history, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

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

export interface SignInHistoryTables {
  sign_ins: SignInsTable;
  sign_in_accounts: SignInAccountsTable;
}
