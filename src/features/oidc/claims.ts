import { splitScope } from '../apps/index.js';
import type { User } from '../accounts/index.js';

/**
 * docs/api.md §12.5: the user claims each scope releases, in the ID token and at UserInfo.
 * Of the standard `profile` claims (OIDC Core §5.1) the center knows the username, the display
 * name and when the account last changed; it keeps no picture, locale or time zone of a person.
 * `roles` (scope `roles`) names the roles the person holds, as listed in the role catalogue.
 */
export function userClaims(
  user: User,
  scopes: readonly string[],
): Record<string, unknown> {
  return {
    ...(scopes.includes('profile') && {
      preferred_username: user.username,
      name: user.displayName,
      updated_at: Math.floor(user.updatedAt / 1000),
    }),
    ...(scopes.includes('email') && {
      email: user.email,
      email_verified: user.emailVerified,
    }),
    ...(scopes.includes('roles') && { roles: user.roles }),
  };
}

const MAX_SCOPE_STRINGS = 1000;
const scopeLists = new Map<string, readonly string[]>();

/** The scope names of a granted scope string; the few distinct strings in use are split once. */
export function scopeList(scope: string): string[] {
  let names = scopeLists.get(scope);
  if (names === undefined) {
    names = Object.freeze(splitScope(scope));
    if (scopeLists.size >= MAX_SCOPE_STRINGS) scopeLists.clear();
    scopeLists.set(scope, names);
  }
  return names as string[];
}

/**
 * The UserInfo answer (OIDC Core §5.3) for a user record and a granted scope. Cached users are
 * shared objects replaced on every reload or change, so the answer is kept per user object:
 * a changed user is a new object and gets a fresh answer.
 */
const userInfos = new WeakMap<User, Map<string, Record<string, unknown>>>();
export function userInfoOf(user: User, scope: string): Record<string, unknown> {
  let byScope = userInfos.get(user);
  if (byScope === undefined) {
    byScope = new Map();
    userInfos.set(user, byScope);
  }
  let info = byScope.get(scope);
  if (info === undefined) {
    info = { sub: String(user.id), ...userClaims(user, scopeList(scope)) };
    byScope.set(scope, info);
  }
  return info;
}

export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'acr',
  'amr',
  'azp',
  'at_hash',
  'sid',
  'preferred_username',
  'name',
  'updated_at',
  'email',
  'email_verified',
  'roles',
] as const;
