/** The table of registered applications, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

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
  status_reason: Generated<string>;
  admin_scopes: Generated<string>;
  backchannel_logout_uri: Generated<string>;
  backchannel_logout_session_required: Generated<number>;
  status_changed_at: number | null;
  created_at: number;
  updated_at: number;
  grant_types: Generated<string>;
  token_endpoint_auth_method: Generated<string>;
  post_logout_redirect_uris: Generated<string>;
  /** JSON array of role names, any one of which admits a person; empty: everyone. */
  required_roles: Generated<string>;
}

export interface AppsTables {
  apps: AppsTable;
}
