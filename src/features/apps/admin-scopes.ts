/**
 * Scopes of the admin API an administrator may grant an application (docs/api.md §15.3): its
 * client_credentials tokens that carry one reach the matching `/api/v1/auth/admin/*` endpoints.
 */
import { isActive } from './app-state.js';
import type { App } from './repository.js';

export const ADMIN_SCOPES = [
  'admin:users:read',
  'admin:users:ban',
  'admin:users:roles',
] as const;
export type AdminScope = (typeof ADMIN_SCOPES)[number];

export const isAdminScope = (v: string): v is AdminScope =>
  (ADMIN_SCOPES as readonly string[]).includes(v);

/** Names reserved for granted admin scopes: an owner cannot give them to their own app. */
export const isReservedScopeName = (v: string): boolean =>
  v.toLowerCase().startsWith('admin:');

/**
 * Whether the application may use `scope` of the admin API right now: it exists, is active,
 * and an administrator has granted it the scope. Read at every call from the app cache, so a
 * revoked scope or a disabled app stops tokens already issued.
 */
export function mayUseAdminScope(
  app: Pick<App, 'status' | 'adminScopes'> | undefined,
  scope: AdminScope,
): boolean {
  return (
    app !== undefined && isActive(app.status) && app.adminScopes.includes(scope)
  );
}
