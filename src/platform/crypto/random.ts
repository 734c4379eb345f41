import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** base64url of `bytes` random bytes from the CSPRNG: 32 → 43 characters (secrets), 16 → 22 (codes). */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** A string of `length` random decimal digits (e-mail and device user codes). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** The base64url characters in ASCII order, so that encoded numbers sort as the numbers do. */
const SORTABLE =
  '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** Characters of the time at the start of a time-ordered id or token. */
const TIME_PREFIX_LENGTH = 7;

/**
 * A base64url id that starts with the time in milliseconds (7 sortable characters, good
 * until 2109) and ends with `randomByteCount` random bytes: by default 22 characters, 88
 * random bits. Rows keyed by it are inserted near the end of their index, in the order made.
 */
export function timeOrderedId(nowMs: number, randomByteCount = 11): string {
  let prefix = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < TIME_PREFIX_LENGTH; i++) {
    prefix = SORTABLE[t % 64]! + prefix;
    t = Math.floor(t / 64);
  }
  return prefix + randomToken(randomByteCount);
}

const TIMED_SECRET_BYTES = 32;
/**
 * Codes and refresh tokens: the time, then 256 random bits (50 characters). The wall clock by
 * default, as for session and family ids, even under a test clock: it only places the row.
 */
export const newTimedSecret = (nowMs = Date.now()): string =>
  timeOrderedId(nowMs, TIMED_SECRET_BYTES);
const TIMED_SECRET_LENGTH =
  TIME_PREFIX_LENGTH + Math.ceil((TIMED_SECRET_BYTES * 8) / 6);

/**
 * How a code or refresh token is stored and looked up: the time it starts with (no secret),
 * then its SHA-256, so new rows land at the end of the key's index. Values issued before
 * they carried the time (43 characters) keep their plain hash.
 */
export function timedSecretKey(secret: string): string {
  const digest = sha256Hex(secret);
  return secret.length === TIMED_SECRET_LENGTH
    ? secret.slice(0, TIME_PREFIX_LENGTH) + digest
    : digest;
}

/** How secrets, codes and device codes are stored: never the value itself. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two stored-form hashes (or any equal-length strings). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Whether `value` hashes to `storedHash`, compared in constant time. */
export function matchesHash(value: string, storedHash: string): boolean {
  return safeEqual(sha256Hex(value), storedHash);
}
