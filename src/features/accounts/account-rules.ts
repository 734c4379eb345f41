/** Account field rules of docs/api.md §2, as pure predicates. */

const USERNAME = /^[A-Za-z0-9_]{3,32}$/;
// Deliberately simple: one @, no spaces, a dot in the domain; the mailbox proves the rest.
const EMAIL =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_TTL_S = 600;
export const EMAIL_RESEND_AFTER_S = 60;
export const EMAIL_CODE_MAX_TRIES = 5;
export const EMAIL_PURPOSES = [
  'register',
  'login',
  'verify',
  'reset_password',
] as const;
export const DEFAULT_ROLES = ['player'];
export const DISPLAY_NAME_MAX = 64;

/**
 * The comparison key of usernames and e-mail addresses: ASCII letters lower-cased, nothing
 * else touched. Unicode case mapping is never used (docs/api.md §2): JavaScript and PostgreSQL
 * both map U+212A KELVIN SIGN to `k`, which would let `\u212aate@…` stand for `kate@…`.
 */
export function asciiLower(v: string): string {
  return v.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export function isValidUsername(v: string): boolean {
  return USERNAME.test(v);
}

/** 8–128 characters, counted as Unicode code points, not UTF-16 units. */
export function isValidPassword(v: string): boolean {
  const n = [...v].length;
  return n >= 8 && n <= 128;
}

export function isValidEmail(v: string): boolean {
  return v.length <= 254 && EMAIL.test(v);
}

export function isEmailPurpose(
  v: string,
): v is (typeof EMAIL_PURPOSES)[number] {
  return (EMAIL_PURPOSES as readonly string[]).includes(v);
}

export function isValidDisplayName(v: string): boolean {
  const n = [...v.trim()].length;
  return n >= 1 && n <= DISPLAY_NAME_MAX && !/[\u0000-\u001f\u007f]/.test(v);
}

/** Role names: the same alphabet as usernames, 1–32 characters. */
export function isValidRole(v: string): boolean {
  return /^[a-z0-9_-]{1,32}$/.test(v);
}

/**
 * Whether the account is banned at `now`: a ban with an end is over once the end has passed,
 * with no write needed, so every sign-in and token check sees it end on time (docs/api.md §15).
 */
export function isBanned(
  user: { banned: boolean; bannedUntil: number | null },
  now: number,
): boolean {
  return user.banned && (user.bannedUntil === null || user.bannedUntil > now);
}
