import { hash, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes are drawn from the CSPRNG a pool at a time: one call per token cost more
 * than signing the token. Every byte is handed out once, then the pool is refilled.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** base64url of `bytes` random bytes: 32 → 43 characters (secrets), 16 → 22 (codes). */
export function randomToken(bytes: number): string {
  if (bytes > POOL_SIZE) return randomFillSync(Buffer.alloc(bytes)).toString('base64url');
  if (poolOffset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

/** A string of `length` random decimal digits (e-mail and device user codes). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** The base64url characters in ASCII order, so that encoded numbers sort as the numbers do. */
const SORTABLE = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** Characters of the time at the start of a time-ordered id or token. */
const TIME_PREFIX_LENGTH = 7;

/**
 * A base64url id that starts with the time in milliseconds (7 sortable characters, good
 * until 2109) and ends with `randomBytes` random bytes: by default 22 characters, 88 random
 * bits. Rows keyed by it are inserted near the end of their index instead of on a random
 * page: the ids made in one group commit share their index pages, so the commit writes a
 * few pages instead of one per row.
 */
export function timeOrderedId(nowMs: number, randomBytes = 11): string {
  let prefix = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < TIME_PREFIX_LENGTH; i++) {
    prefix = SORTABLE[t % 64]! + prefix;
    t = Math.floor(t / 64);
  }
  return prefix + randomToken(randomBytes);
}

const TIMED_SECRET_BYTES = 32;
/**
 * Codes and refresh tokens: the time, then 256 random bits (50 characters). The wall clock by
 * default, as for session and family ids, even under a test clock: it only places the row.
 */
export const newTimedSecret = (nowMs = Date.now()): string => timeOrderedId(nowMs, TIMED_SECRET_BYTES);
const TIMED_SECRET_LENGTH = TIME_PREFIX_LENGTH + Math.ceil((TIMED_SECRET_BYTES * 8) / 6);

/**
 * How a code or refresh token is stored and looked up: the time it starts with (no secret),
 * then its SHA-256. New rows land at the end of the key's index, and looking up a recent one
 * reads the pages recent writes left in the cache, where a plain hash put each row on a
 * random page. Values issued before they carried the time (43 characters) keep their plain hash.
 */
export function timedSecretKey(secret: string): string {
  const digest = sha256Hex(secret);
  return secret.length === TIMED_SECRET_LENGTH ? secret.slice(0, TIME_PREFIX_LENGTH) + digest : digest;
}

/** How secrets, codes and device codes are stored: never the value itself. */
export function sha256Hex(value: string): string {
  // The one-shot hash: a Hash object per call cost five times as much (1.3 µs against 0.26).
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
