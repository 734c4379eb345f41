import type { Kysely } from 'kysely';
import type { AccountsTables } from './tables.js';
import type { NewUser, User } from './repository.js';
import {
  enqueueEvents,
  type ModerationTables,
  type OutboxEvent,
} from '../moderation/index.js';
import { newUserRow, toUser } from './user-rows.js';
import { joinCatalogue } from './join-catalogue.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { narrow } from '../../platform/sql/narrow.js';

/** The users, and the outbox their changes are announced through in the same transaction. */
export type UserWriteTables = AccountsTables & ModerationTables;

/**
 * Inserts a new user with `db`, which may be a transaction: a feature that creates an account
 * together with rows of its own (an upstream link) does it in one. Throws `UniqueViolation`.
 */
export async function insertUser(
  db: Kysely<UserWriteTables>,
  u: NewUser,
  now: number,
  events?: (created: User) => readonly OutboxEvent[],
): Promise<User> {
  try {
    const insert = async (trx: Kysely<UserWriteTables>) => {
      const user = toUser(
        await trx
          .insertInto('users')
          .values(newUserRow({ ...u, banned: false, createdAt: now }, now))
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      await joinCatalogue(narrow(trx), user.roles, now);
      if (events) await enqueueEvents(narrow(trx), events(user), now);
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
