import { hkdfSync } from 'node:crypto';

/**
 * A key of its own for one purpose, derived (HKDF-SHA256) from JWT_SECRET. JWT_SECRET itself
 * signs only the v1 access tokens; every other use (e-mail codes, CAPTCHA challenges, sealed
 * secrets, upstream sign-in values) keys with a derived one, so a value made for one purpose
 * never serves as, or tells anything of, a value for another.
 */
export function derivedKey(
  masterSecret: string,
  purpose: string,
  salt = 'account-center',
): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, salt, purpose, 32));
}
