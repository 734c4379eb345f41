import type { Generated } from 'kysely';
/** The tables of sign-in with other accounts, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
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
  /** JSON array: the roles the provider's role map gave through this link. */
  granted_roles: Generated<string>;
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

export interface UpstreamTables {
  upstream_providers: UpstreamProvidersTable;
  upstream_links: UpstreamLinksTable;
  upstream_flows: UpstreamFlowsTable;
}
