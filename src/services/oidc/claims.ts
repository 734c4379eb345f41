import { splitScope } from '../../domain/scope.js';
import type { User } from '../../storage/types.js';

/** OIDC.md §5: the user claims each scope releases, in the ID token and at UserInfo. */
export function userClaims(user: User, scopes: readonly string[]): Record<string, unknown> {
  return {
    ...(scopes.includes('profile') && { preferred_username: user.username, name: user.displayName }),
    ...(scopes.includes('email') && { email: user.email, email_verified: user.emailVerified }),
  };
}

export const scopeList = (scope: string): string[] => splitScope(scope);

export const CLAIMS_SUPPORTED = [
  'sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'azp', 'at_hash', 'preferred_username', 'name', 'email', 'email_verified',
] as const;
