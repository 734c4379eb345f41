import { createHmac } from 'node:crypto';
import { derivedKey } from '../../platform/crypto/derived-key.js';

/**
 * E-mail codes are kept as a keyed hash, so a database dump does not reveal live codes. Every
 * purpose (sign-up, sign-in, reset, re-authentication) shares this one key: the code's row
 * names its purpose.
 */
export function emailCodeHasher(jwtSecret: string): (code: string) => string {
  const key = derivedKey(jwtSecret, 'email-code');
  return (code) => createHmac('sha256', key).update(code).digest('hex');
}
