/** The table of re-authentication grants, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
export interface ReauthGrantsTable {
  user_id: number;
  session_key: string;
  purpose: string;
  expires_at: number;
}

export interface ReauthTables {
  reauth_grants: ReauthGrantsTable;
}
