import { splitScope } from '../apps/index.js';
import { OAuthError } from './oauth-error.js';

/** A requested scope narrower than (or equal to) the granted one; undefined keeps the grant (RFC 6749 §6). */
export function narrowed(
  requested: string | undefined,
  granted: string,
): string {
  if (requested === undefined) return granted;
  const have = splitScope(granted);
  const asked = splitScope(requested);
  if (asked.length === 0 || !asked.every((s) => have.includes(s)))
    throw new OAuthError(
      'invalid_scope',
      'The requested scope exceeds the granted scope',
    );
  return asked.join(' ');
}
