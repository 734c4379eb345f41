import type { Kysely, Selectable } from 'kysely';
import { joinCatalogue } from './join-catalogue.js';
import { asciiLower } from './account-rules.js';
import type { AccountsTables, UsersTable } from './tables.js';
import type { ImportedUser, User, UserPatch } from './repository.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { randomToken } from '../../platform/crypto/random.js';

export function toUser(r: Selectable<UsersTable>): User {
  return {
    id: Number(r.id),
    username: r.username,
    email: r.email,
    displayName: r.display_name,
    passwordHash: r.password_hash,
    emailVerified: Number(r.email_verified) === 1,
    roles: JSON.parse(r.roles) as string[],
    banned: Number(r.banned) === 1,
    banReason: r.ban_reason,
    bannedUntil: r.banned_until === null ? null : Number(r.banned_until),
    tokensValidAfter: Number(r.tokens_valid_after),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** LIKE pattern matching `q` literally anywhere, ignoring ASCII case like the stored keys. */
export function likePattern(q: string): string {
  return `%${asciiLower(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The unique key of an account without an e-mail address (one made by an upstream sign-in,
 * docs/api.md §14.4): no address, and never equal to another key, since `email_lower` is unique.
 * It has no `@`, so no address typed anywhere looks it up.
 */
const noEmailKey = () => `~${randomToken(16)}`;
export const emailKeyOf = (email: string) =>
  email === '' ? noEmailKey() : asciiLower(email);

/** The row of a new user; the lower-cased keys fold ASCII letters only (docs/api.md §2). */
export function newUserRow(u: ImportedUser, now: number) {
  return {
    username: u.username,
    username_lower: asciiLower(u.username),
    email: u.email,
    email_lower: emailKeyOf(u.email),
    display_name: u.displayName,
    password_hash: u.passwordHash,
    email_verified: u.emailVerified ? 1 : 0,
    roles: JSON.stringify(u.roles),
    banned: u.banned ? 1 : 0,
    tokens_valid_after: 0,
    created_at: u.createdAt,
    updated_at: now,
  };
}

/** Writes the fields of `p` that are set; throws `UniqueViolation` for a taken key. */
export async function updateUserRow(
  db: Kysely<AccountsTables>,
  id: number,
  p: UserPatch,
  now: number,
): Promise<void> {
  // A role given that the catalogue does not list yet joins it (docs/api.md §19).
  if (p.roles !== undefined) await joinCatalogue(db, p.roles, now);
  await db
    .updateTable('users')
    .set({
      ...(p.username !== undefined && {
        username: p.username,
        username_lower: asciiLower(p.username),
      }),
      ...(p.email !== undefined && {
        email: p.email,
        email_lower: emailKeyOf(p.email),
      }),
      ...(p.displayName !== undefined && { display_name: p.displayName }),
      ...(p.passwordHash !== undefined && { password_hash: p.passwordHash }),
      ...(p.emailVerified !== undefined && {
        email_verified: p.emailVerified ? 1 : 0,
      }),
      ...(p.roles !== undefined && { roles: JSON.stringify(p.roles) }),
      ...(p.banned !== undefined && { banned: p.banned ? 1 : 0 }),
      ...(p.banReason !== undefined && { ban_reason: p.banReason }),
      ...(p.bannedUntil !== undefined && { banned_until: p.bannedUntil }),
      ...(p.tokensValidAfter !== undefined && {
        tokens_valid_after: p.tokensValidAfter,
      }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute()
    .catch(mapUnique);
}
