import { splitScope } from '../authorization/index.js';
import type { User } from '../accounts/index.js';

/** docs/api.md §12.5: the user claims each scope releases, in the ID token and at UserInfo. */
export function userClaims(user: User, scopes: readonly string[]): Record<string, unknown> {
  return {
    ...(scopes.includes('profile') && { preferred_username: user.username, name: user.displayName }),
    ...(scopes.includes('email') && { email: user.email, email_verified: user.emailVerified }),
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
  if (byScope === undefined) userInfos.set(user, (byScope = new Map()));
  let info = byScope.get(scope);
  if (info === undefined) {
    info = { sub: String(user.id), ...userClaims(user, scopeList(scope)) };
    byScope.set(scope, info);
  }
  return info;
}

export const CLAIMS_SUPPORTED = [
  'sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'amr', 'azp', 'at_hash', 'sid', 'preferred_username', 'name', 'email', 'email_verified',
] as const;
