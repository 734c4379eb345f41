/**
 * JSON shapes of the public interface that both the service and the browser pages handle,
 * declared once (CONTRACT §3, §8; SPEC §2.4, §2.7). Types only: the page bundle imports them
 * without pulling in any server code.
 */

/** An application as listed and updated (CONTRACT §3): never the secret, only `has_secret`. */
export interface AppView {
  client_id: string;
  display_name: string;
  homepage: string;
  scopes: string[];
  redirect_uris: string[];
  cors_origins: string[];
  client_type: 'confidential' | 'public';
  status: 'active' | 'disabled';
  has_secret: boolean;
  created_at: number;
  updated_at: number;
}

/** `data` of client_info (SPEC §2.7): no secret, no whitelist. */
export interface ClientInfo {
  client_id: string;
  display_name: string;
  homepage: string;
  scopes: string[];
  redirect_ok: boolean;
  client_type: string;
  pkce_required: boolean;
}

/** A user as the admin API lists it (CONTRACT §8). */
export interface AdminUserView {
  uid: number;
  username: string;
  display_name: string;
  email: string;
  email_verified: boolean;
  roles: string[];
  banned: boolean;
}

/** `data` of `me` (SPEC §2.4). */
export interface MeData {
  uid: number;
  username: string;
  display_name: string;
  email: string;
  email_verified: boolean;
  roles: string[];
  app: string;
  exp: number;
}
