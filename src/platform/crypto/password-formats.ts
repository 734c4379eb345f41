import { pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

/**
 * Password hashes brought in from other systems (`users import`), kept exactly as those
 * systems made them and checked at the next sign-in, after which the service stores its own
 * argon2id hash instead. The text forms (docs/operations.md):
 *
 *   $argon2id$v=19$m=…,t=…,p=…$salt$hash             argon2 (PHC string, also $argon2i$/$argon2d$)
 *   $2a$ / $2b$ / $2y$ + cost + 53 characters          bcrypt
 *   $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>      scrypt (salt and hash in base64)
 *   pbkdf2_sha256$<iterations>$<salt>$<hash>           Django (salt used as text, hash base64)
 *   $pbkdf2-<sha1|sha256|sha512>$i=<iterations>$<salt>$<hash>   salt bytes and hash in base64
 *                                                     (Keycloak's credential, see keycloakCredentialToHash)
 *
 * Limits on the cost parameters (COST_LIMITS) keep one sign-in from occupying a core for
 * seconds: a hash over them would cost more to verify than about ten of the service's own.
 */

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** The most a stored hash may ask for; the service's own argon2id is m=19456 KiB, t=2, p=1. */
export const COST_LIMITS = {
  argon2MemoryKiB: 256 * 1024,
  argon2Time: 10,
  argon2Parallelism: 8,
  bcryptCost: 14,
  scryptLog2N: 20,
  scryptMemoryBytes: 256 * 1024 * 1024,
  scryptParallelism: 8,
  pbkdf2Iterations: 1_000_000,
  /** PBKDF2 runs its iterations once per block of the key: a long "hash" multiplies the cost. */
  pbkdf2KeyBytes: 64,
} as const;

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const ARGON2 =
  /^\$argon2(id|i|d)\$v=\d+\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const SCRYPT =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/._=-]+)\$([A-Za-z0-9+/._=-]+)$/;
const DJANGO = /^pbkdf2_sha256\$(\d{1,8})\$([^$]{1,128})\$([A-Za-z0-9+/=]+)$/;
const PBKDF2 =
  /^\$pbkdf2-(sha1|sha256|sha512)\$i=(\d{1,8})\$([A-Za-z0-9+/._=-]+)\$([A-Za-z0-9+/._=-]+)$/;

/** Standard or URL-safe base64, padded or not; passlib's "." stands for "+". */
const bytes = (b64: string): Buffer =>
  Buffer.from(b64.replace(/\./g, '+'), 'base64');

type Check = (password: string) => Promise<boolean>;

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Every refusal for a cost over COST_LIMITS says so in these words (see isCostProblem). */
const OVER_LIMIT = 'over the limit of';

/** Whether hashProblem's reason is a cost over COST_LIMITS, rather than an unusable format. */
export const isCostProblem = (problem: string): boolean =>
  problem.includes(` ${OVER_LIMIT} `);

function pbkdf2Problem(
  iterations: number,
  keyBytes: number,
): string | undefined {
  if (iterations < 1) return 'pbkdf2 iterations must be at least 1';
  if (iterations > COST_LIMITS.pbkdf2Iterations)
    return `pbkdf2 iterations ${iterations} are ${OVER_LIMIT} ${COST_LIMITS.pbkdf2Iterations}`;
  if (keyBytes > COST_LIMITS.pbkdf2KeyBytes)
    return `pbkdf2 hash of ${keyBytes} bytes is ${OVER_LIMIT} ${COST_LIMITS.pbkdf2KeyBytes}`;
  return undefined;
}

/** Why an argon2 PHC string asks for more than COST_LIMITS allows, read from its parameters alone. */
function argon2Problem(m: RegExpExecArray): string | undefined {
  const [memory, time, lanes] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (memory > COST_LIMITS.argon2MemoryKiB)
    return `argon2 memory m=${memory} KiB is ${OVER_LIMIT} ${COST_LIMITS.argon2MemoryKiB} KiB (256 MiB)`;
  if (time > COST_LIMITS.argon2Time)
    return `argon2 time t=${time} is ${OVER_LIMIT} ${COST_LIMITS.argon2Time}`;
  if (lanes > COST_LIMITS.argon2Parallelism)
    return `argon2 parallelism p=${lanes} is ${OVER_LIMIT} ${COST_LIMITS.argon2Parallelism}`;
  return undefined;
}

/** The checker for a foreign hash, or a reason it is not usable. argon2 is the caller's own. */
function foreignCheck(hash: string): Check | string {
  let m = BCRYPT.exec(hash);
  if (m) {
    const cost = Number(m[1]);
    if (cost < 4) return 'bcrypt cost must be at least 4';
    if (cost > COST_LIMITS.bcryptCost)
      return `bcrypt cost ${cost} is ${OVER_LIMIT} ${COST_LIMITS.bcryptCost}`;
    // $2y$ (PHP) is the same algorithm as $2b$.
    const normal = hash.replace(/^\$2y\$/, '$2b$');
    return (password) => bcrypt.compare(password, normal);
  }
  m = SCRYPT.exec(hash);
  if (m) {
    const N = 2 ** Number(m[1]);
    const r = Number(m[2]);
    const p = Number(m[3]);
    const salt = bytes(m[4]!);
    const expected = bytes(m[5]!);
    const memory = 128 * N * r;
    if (Number(m[1]) < 1 || r < 1 || p < 1)
      return 'scrypt parameters out of range';
    if (Number(m[1]) > COST_LIMITS.scryptLog2N)
      return `scrypt N 2^${m[1]} is ${OVER_LIMIT} 2^${COST_LIMITS.scryptLog2N}`;
    if (memory > COST_LIMITS.scryptMemoryBytes)
      return `scrypt memory 128·N·r = ${memory} bytes is ${OVER_LIMIT} ${COST_LIMITS.scryptMemoryBytes} (256 MiB)`;
    if (p > COST_LIMITS.scryptParallelism)
      return `scrypt p=${p} is ${OVER_LIMIT} ${COST_LIMITS.scryptParallelism}`;
    if (expected.length < 16 || salt.length < 1)
      return 'scrypt salt or hash too short';
    return async (password) =>
      same(
        await scryptAsync(password, salt, expected.length, {
          N,
          r,
          p,
          maxmem: memory * 2,
        }),
        expected,
      );
  }
  m = DJANGO.exec(hash);
  if (m) {
    const iterations = Number(m[1]);
    const expected = bytes(m[3]!);
    const problem = pbkdf2Problem(iterations, expected.length);
    if (problem) return problem;
    if (expected.length !== 32) return 'pbkdf2_sha256 hash must be 32 bytes';
    const salt = Buffer.from(m[2]!, 'utf8');
    return async (password) =>
      same(
        await pbkdf2Async(password, salt, iterations, 32, 'sha256'),
        expected,
      );
  }
  m = PBKDF2.exec(hash);
  if (m) {
    const digest = m[1]!;
    const iterations = Number(m[2]);
    const salt = bytes(m[3]!);
    const expected = bytes(m[4]!);
    const problem = pbkdf2Problem(iterations, expected.length);
    if (problem) return problem;
    if (expected.length < 16 || salt.length < 1)
      return 'pbkdf2 salt or hash too short';
    return async (password) =>
      same(
        await pbkdf2Async(password, salt, iterations, expected.length, digest),
        expected,
      );
  }
  return 'unknown password hash format (argon2, bcrypt, scrypt, Django pbkdf2_sha256, $pbkdf2-…)';
}

export const isArgon2 = (hash: string): boolean => ARGON2.test(hash);

/**
 * Why a stored hash can not be verified, or undefined when it can: an unknown format, or
 * parameters over COST_LIMITS (read without computing anything). Checked at import and again
 * at every sign-in, so a row that got into the database some other way is refused as a wrong
 * password at the cost of the dummy hash, never computed.
 */
export function hashProblem(hash: string): string | undefined {
  const argon2 = ARGON2.exec(hash);
  if (argon2) return argon2Problem(argon2);
  const check = foreignCheck(hash);
  return typeof check === 'string' ? check : undefined;
}

/** Verifies a foreign hash; an unusable one gives false (the caller handles timing). */
export async function verifyForeign(
  hash: string,
  password: string,
): Promise<boolean> {
  const check = foreignCheck(hash);
  if (typeof check === 'string') return false;
  try {
    return await check(password);
  } catch {
    return false;
  }
}

/** Keycloak keeps both halves as JSON text (realm export) or objects (admin API). */
const asObject = (v: unknown): Record<string, unknown> =>
  (typeof v === 'string' ? JSON.parse(v) : (v ?? {})) as Record<
    string,
    unknown
  >;
const first = (v: unknown): string | undefined =>
  Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
const noPad = (b64: string) => b64.replace(/=+$/, '');

/**
 * A Keycloak password credential ({ secretData, credentialData }) in the text form above:
 * pbkdf2-sha256/-sha512/pbkdf2 (sha1) become `$pbkdf2-…`, argon2 becomes a PHC string.
 */
export function keycloakCredentialToHash(credential: unknown): string {
  const c = asObject(credential);
  const secret = asObject(c.secretData);
  const data = asObject(c.credentialData);
  const value = String(secret.value ?? '');
  const salt = String(secret.salt ?? '');
  const algorithm = String(data.algorithm ?? '');
  const iterations = Number(data.hashIterations);
  if (!value || !salt)
    throw new Error('Keycloak credential without value or salt');
  const pbkdf2Digest: Record<string, string> = {
    'pbkdf2-sha256': 'sha256',
    'pbkdf2-sha512': 'sha512',
    pbkdf2: 'sha1',
  };
  if (pbkdf2Digest[algorithm])
    return `$pbkdf2-${pbkdf2Digest[algorithm]}$i=${iterations}$${salt}$${value}`;
  if (algorithm === 'argon2') {
    const p = (data.additionalParameters ?? {}) as Record<string, unknown>;
    const type = first(p.type) ?? 'id';
    const version = (first(p.version) ?? '1.3') === '1.3' ? 19 : 16;
    return `$argon2${type}$v=${version}$m=${first(p.memory) ?? 7168},t=${iterations || 5},p=${first(p.parallelism) ?? 1}$${noPad(salt)}$${noPad(value)}`;
  }
  throw new Error(
    `Keycloak credential algorithm "${algorithm}" is not supported`,
  );
}
