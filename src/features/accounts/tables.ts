/** The tables of accounts, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
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
  ban_reason: Generated<string>;
  banned_until: number | null;
  tokens_valid_after: number;
  created_at: number;
  updated_at: number;
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

export interface AccountsTables {
  users: UsersTable;
  email_codes: EmailCodesTable;
  roles: RolesTable;
}
