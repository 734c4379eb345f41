import {
  DEFAULT_ROLES,
  asciiLower,
  isValidDisplayName,
  isValidEmail,
  isValidRole,
  isValidUsername,
} from '../accounts/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { ImportedUser, User, UserRepo } from '../accounts/index.js';
import {
  hashProblem,
  isCostProblem,
  keycloakCredentialToHash,
} from '../../platform/crypto/password-formats.js';

/**
 * Moving users in and out (`account-center users export|import`). Export writes each user
 * with its password hash; import takes such rows (or another system's) in batches, keeps the
 * password hashes as they are (verified and replaced at the next sign-in, platform/crypto/passwords.ts)
 * and never hashes anything itself, so a million rows take minutes, not days.
 */

/** What one exported (and importable) row holds; `password_hash` empty means no password. */
export interface UserRecord {
  username: string;
  email: string;
  display_name: string;
  roles: string[];
  email_verified: boolean;
  banned: boolean;
  password_hash: string;
  created_at: string;
}

/**
 * A row whose password hash asks for more work than COST_LIMITS (password-formats.ts) allows.
 * Such a row refuses the whole file: nothing of it is imported.
 */
export class HashTooCostly extends Error {}

/** Stored for accounts imported without a password: nothing verifies against it (sign in by e-mail code). */
export const NO_PASSWORD = '!no-password';

export interface RowResult {
  imported: number;
  /** Already in the database with the same e-mail: an earlier run imported them (resume). */
  present: number;
  rejected: Array<{ line: number; reason: string }>;
}

export function toRecord(u: User): UserRecord {
  return {
    username: u.username,
    email: u.email,
    display_name: u.displayName,
    roles: u.roles,
    email_verified: u.emailVerified,
    banned: u.banned,
    password_hash: u.passwordHash === NO_PASSWORD ? '' : u.passwordHash,
    created_at: new Date(u.createdAt).toISOString(),
  };
}

function bool(v: unknown, field: string): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 't', 'yes', 'y'].includes(s)) return true;
  if (['0', 'false', 'f', 'no', 'n'].includes(s)) return false;
  throw new Error(`${field}: expected true or false, got "${String(v)}"`);
}

function roles(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [...DEFAULT_ROLES];
  const list = Array.isArray(v)
    ? v.map(String)
    : String(v)
        .split(/[\s,;|]+/)
        .filter(Boolean);
  const bad = list.find((r) => !isValidRole(r));
  if (bad !== undefined)
    throw new Error(`roles: "${bad}" is not a valid role name`);
  return [...new Set(list)];
}

function createdAt(v: unknown, now: number): number {
  if (v === undefined || v === null || v === '') return now;
  const ms =
    typeof v === 'number' || /^\d+$/.test(String(v))
      ? Number(v)
      : Date.parse(String(v));
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`created_at: not a date: "${String(v)}"`);
  return ms;
}

/** Django writes argon2 and plain bcrypt hashes behind its hasher's name: `argon2$argon2id$…`, `bcrypt$$2b$…`. */
const DJANGO_WRAPPER = /^(?:argon2(?=\$argon2)|bcrypt\$(?=\$2))/;

function passwordHash(r: Record<string, unknown>): string {
  const credential =
    r.keycloak_credential ??
    (Array.isArray(r.credentials)
      ? r.credentials.find((c) => c?.type === 'password')
      : undefined);
  const raw =
    credential !== undefined
      ? keycloakCredentialToHash(credential)
      : typeof r.password_hash === 'object' && r.password_hash !== null
        ? keycloakCredentialToHash(r.password_hash)
        : String(r.password_hash ?? '')
            .trim()
            .replace(DJANGO_WRAPPER, '');
  if (raw === '') return NO_PASSWORD;
  const problem = hashProblem(raw);
  if (problem)
    throw new (isCostProblem(problem) ? HashTooCostly : Error)(
      `password_hash: ${problem}`,
    );
  return raw;
}

/**
 * One row to a user, or an error naming the field. Besides this service's own names, the
 * names of a Keycloak user representation are understood (emailVerified, firstName, lastName,
 * credentials, enabled, createdTimestamp).
 */
export function parseRecord(
  r: Record<string, unknown>,
  now: number,
): ImportedUser {
  const username = String(r.username ?? '').trim();
  if (!isValidUsername(username))
    throw new Error(`username: "${username}" is not 3–32 of A-Z a-z 0-9 _`);
  const email = String(r.email ?? '').trim();
  if (!isValidEmail(email))
    throw new Error(`email: "${email}" is not a valid e-mail address`);
  const fullName = [r.firstName, r.lastName]
    .filter((s) => typeof s === 'string' && s.trim())
    .join(' ');
  const displayName = String(
    r.display_name ?? r.displayName ?? (fullName || username),
  ).trim();
  if (!isValidDisplayName(displayName))
    throw new Error('display_name: 1–64 characters without control characters');
  return {
    username,
    email,
    displayName,
    roles: roles(r.roles),
    emailVerified: bool(r.email_verified ?? r.emailVerified, 'email_verified'),
    banned: r.enabled === false || bool(r.banned, 'banned'),
    passwordHash: passwordHash(r),
    createdAt: createdAt(r.created_at ?? r.createdTimestamp, now),
  };
}

export class UserTransferService {
  constructor(
    private readonly users: UserRepo,
    private readonly now: () => number,
  ) {}

  /** Every user, in id order, a page at a time. */
  async *exportAll(pageSize = 1000): AsyncGenerator<UserRecord> {
    let after = 0;
    for (;;) {
      const page = await this.users.listAfter(after, pageSize);
      for (const u of page) yield toRecord(u);
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.id;
    }
  }

  /**
   * Imports one batch of parsed rows. A user name already present with the same e-mail counts
   * as imported earlier (so a stopped import can simply be run again); a clash with another
   * account is a rejected row. Rows go in together in one transaction; if a concurrent sign-up
   * takes a name meanwhile, the batch is retried row by row. A row is written whole or not at all.
   */
  async importBatch(
    rows: Array<{ line: number; user: ImportedUser }>,
  ): Promise<RowResult> {
    const result: RowResult = { imported: 0, present: 0, rejected: [] };
    const taken = await this.users.takenKeys(
      rows.map((r) => asciiLower(r.user.username)),
      rows.map((r) => asciiLower(r.user.email)),
    );
    const seenNames = new Set<string>();
    const seenEmails = new Set<string>();
    const fresh: Array<{ line: number; user: ImportedUser }> = [];
    for (const row of rows) {
      const name = asciiLower(row.user.username);
      const email = asciiLower(row.user.email);
      const owner = taken.usernames.get(name);
      if (owner !== undefined) {
        if (owner === email) result.present += 1;
        else
          result.rejected.push({
            line: row.line,
            reason: `username "${row.user.username}" is taken by an account with another e-mail`,
          });
      } else if (taken.emails.has(email) || seenEmails.has(email)) {
        result.rejected.push({
          line: row.line,
          reason: `e-mail "${row.user.email}" is used by another account`,
        });
      } else if (seenNames.has(name)) {
        result.rejected.push({
          line: row.line,
          reason: `username "${row.user.username}" appears twice`,
        });
      } else {
        seenNames.add(name);
        seenEmails.add(email);
        fresh.push(row);
      }
    }
    try {
      await this.users.insertMany(
        fresh.map((r) => r.user),
        this.now(),
      );
      result.imported += fresh.length;
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      for (const row of fresh) {
        try {
          await this.users.insertMany([row.user], this.now());
          result.imported += 1;
        } catch (e) {
          if (!(e instanceof UniqueViolation)) throw e;
          result.rejected.push({
            line: row.line,
            reason: `${e.field} is already taken`,
          });
        }
      }
    }
    return result;
  }
}
