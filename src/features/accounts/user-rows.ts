import type { Kysely, Selectable } from 'kysely';
import { asciiLower } from './account-rules.js';
import type { Database, UsersTable } from '../../platform/sql/schema.js';
import type { ImportedUser, NewUser, User } from './repository.js';
import { enqueueEvents, type OutboxEvent } from '../../platform/sql/outbox.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { randomToken } from '../../platform/crypto/random.js';
import { joinCatalogue } from './join-catalogue.js';

/** The user row as the repositories read and write it. */
/**
 * Inserts a new user with `db`, which may be a transaction: a feature that creates an account
 * together with rows of its own (an upstream link) does it in one. Throws `UniqueViolation`.
 */
export async function insertUser(
  db: Kysely<Database>,
  u: NewUser,
  now: number,
  events?: (created: User) => readonly OutboxEvent[],
): Promise<User> {
  try {
    const insert = async (trx: Kysely<Database>) => {
      const user = toUser(
        await trx
          .insertInto('users')
          .values(newUserRow({ ...u, banned: false, createdAt: now }, now))
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      await joinCatalogue(trx, user.roles, now);
      if (events) await enqueueEvents(trx, events(user), now);
      return user;
    };
    // The row, the roles it brings into the catalogue and its events commit together.
    return !db.isTransaction
      ? await db.transaction().execute(insert)
      : await insert(db);
  } catch (err) {
    return mapUnique(err);
  }
}

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
  return `%${asciiLower(q).replace(/[\\%_]/g, (c) => '\\' + c)}%`;
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
