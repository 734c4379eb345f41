import { sql, type Kysely } from 'kysely';
import { asciiLower } from './account-rules.js';
import type { UserWriteTables } from './insert-user.js';
import type {
  ImportedUser,
  NewUser,
  User,
  UserPatch,
  UserRepo,
} from './repository.js';
import {
  enqueueEvents,
  SESSION_ENDING_EVENTS,
  type OutboxEvent,
} from '../moderation/index.js';
import { likePattern, newUserRow, toUser, updateUserRow } from './user-rows.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { insertUser } from './insert-user.js';
import { joinCatalogue } from './join-catalogue.js';
import { narrow } from '../../platform/sql/narrow.js';
import { dayOf, perDay } from '../../platform/sql/per-day.js';

/**
 * Queues, with `trx`, what else ends with every session of a person (the clients' back-channel
 * logout tokens), before the change that ends them and in its transaction. Another part of the
 * center owns it, so the composition root hands it in with the database that part reads.
 */
export type SessionsEnding<DB> = (
  trx: Kysely<DB>,
  userId: number,
  now: number,
) => Promise<void>;

export class SqlUserRepo<DB extends UserWriteTables> implements UserRepo {
  private readonly db: Kysely<UserWriteTables>;

  constructor(
    private readonly database: Kysely<DB>,
    private readonly kind: 'sqlite' | 'postgres',
    private readonly sessionsEnding: SessionsEnding<DB>,
  ) {
    this.db = narrow(database);
  }

  create(
    u: NewUser,
    now: number,
    events?: (created: User) => readonly OutboxEvent[],
  ): Promise<User> {
    return insertUser(this.db, u, now, events);
  }

  async findById(id: number): Promise<User | undefined> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toUser(r);
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username_lower', '=', asciiLower(username))
      .executeTakeFirst();
    return r && toUser(r);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email_lower', '=', asciiLower(email))
      .executeTakeFirst();
    return r && toUser(r);
  }

  async findByLogin(login: string): Promise<User | undefined> {
    return login.includes('@')
      ? this.findByEmail(login)
      : this.findByUsername(login);
  }

  async update(
    id: number,
    p: UserPatch,
    now: number,
    events: readonly OutboxEvent[] = [],
  ): Promise<void> {
    if (events.length === 0) return updateUserRow(narrow(this.db), id, p, now);
    await this.database.transaction().execute(async (whole) => {
      // A change that ends every session of the person logs out the clients holding their
      // tokens (Back-Channel Logout): their families are picked before the cut-off moves.
      if (events.some((e) => SESSION_ENDING_EVENTS.includes(e.type)))
        await this.sessionsEnding(whole, id, now);
      const trx = narrow<UserWriteTables, DB>(whole);
      await updateUserRow(narrow(trx), id, p, now);
      await enqueueEvents(narrow(trx), events, now);
    });
  }

  async setRolesKeepingOne(
    id: number,
    roles: string[],
    kept: string,
    now: number,
    events: readonly OutboxEvent[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!roles.includes(kept)) {
        // PostgreSQL locks every holder's row, in id order so two such changes never deadlock,
        // and re-reads a row another one changed meanwhile; SQLite runs one write transaction at a time.
        let holders = trx
          .selectFrom('users')
          .select('id')
          .where(
            sql<boolean>`roles like ${likePattern(JSON.stringify(kept))} escape '\\'`,
          )
          .orderBy('id');
        if (this.kind === 'postgres') holders = holders.forUpdate();
        const ids = (await holders.execute()).map((r) => Number(r.id));
        if (ids.length === 1 && ids[0] === id) return false;
      }
      await updateUserRow(narrow(trx), id, { roles }, now);
      await enqueueEvents(narrow(trx), events, now);
      return true;
    });
  }

  async endExpiredBans(
    now: number,
    eventsOf: (user: User) => readonly OutboxEvent[],
  ): Promise<User[]> {
    return this.db.transaction().execute(async (trx) => {
      // The conditions are re-read under the row lock: an instance that lost the race changes nothing.
      const rows = await trx
        .updateTable('users')
        .set({ banned: 0, ban_reason: '', banned_until: null, updated_at: now })
        .where('banned', '=', 1)
        .where('banned_until', 'is not', null)
        .where('banned_until', '<=', now)
        .returningAll()
        .execute();
      const lifted = rows.map(toUser);
      for (const user of lifted)
        await enqueueEvents(narrow(trx), eventsOf(user), now);
      return lifted;
    });
  }

  async search(
    query: string,
    offset: number,
    limit: number,
    filter: { withoutRole?: string } = {},
  ): Promise<{ users: User[]; total: number }> {
    let q = this.db.selectFrom('users');
    // Roles are a JSON array of names without quotes in them: `"admin"` matches that role only.
    if (filter.withoutRole !== undefined)
      q = q.where(
        sql<boolean>`roles not like ${likePattern(JSON.stringify(filter.withoutRole))} escape '\\'`,
      );
    if (query) {
      const pattern = likePattern(query);
      q = q.where(
        sql<boolean>`(username_lower like ${pattern} escape '\\' or email_lower like ${pattern} escape '\\')`,
      );
    }
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id').offset(offset).limit(limit).execute(),
      q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { users: rows.map(toUser), total: Number(count.n) };
  }

  async changedSince(since: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('updated_at', '>=', since)
      .execute();
    return rows.map((r) => Number(r.id));
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async roleCounts(): Promise<Array<{ role: string; users: number }>> {
    // Roles are stored as a JSON array of names: each dialect unnests it its own way.
    const query =
      this.kind === 'postgres'
        ? sql<{
            role: string;
            n: number | string;
          }>`select r.role, count(*) as n from users cross join lateral jsonb_array_elements_text(users.roles::jsonb) as r(role) group by r.role order by r.role`
        : sql<{
            role: string;
            n: number | string;
          }>`select j.value as role, count(*) as n from users, json_each(users.roles) as j group by j.value order by j.value`;
    const { rows } = await query.execute(this.db);
    return rows.map((r) => ({ role: r.role, users: Number(r.n) }));
  }

  async createdPerDay(
    since: number,
  ): Promise<Array<{ day: string; count: number }>> {
    const rows = await this.db
      .selectFrom('users')
      .select([
        dayOf('created_at', this.kind).as('d'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('created_at', '>=', since)
      .groupBy('d')
      .orderBy('d')
      .execute();
    return perDay(rows);
  }

  async listAfter(afterId: number, limit: number): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toUser);
  }

  async takenKeys(
    usernameKeys: string[],
    emailKeys: string[],
  ): Promise<{ usernames: Map<string, string>; emails: Set<string> }> {
    const [byName, byEmail] = await Promise.all([
      usernameKeys.length
        ? this.db
            .selectFrom('users')
            .select(['username_lower', 'email_lower'])
            .where('username_lower', 'in', usernameKeys)
            .execute()
        : [],
      emailKeys.length
        ? this.db
            .selectFrom('users')
            .select('email_lower')
            .where('email_lower', 'in', emailKeys)
            .execute()
        : [],
    ]);
    return {
      usernames: new Map(byName.map((r) => [r.username_lower, r.email_lower])),
      emails: new Set(byEmail.map((r) => r.email_lower)),
    };
  }

  async insertMany(users: ImportedUser[], now: number): Promise<void> {
    if (users.length === 0) return;
    const rows = users.map((u) => newUserRow(u, now));
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(rows).execute();
        await joinCatalogue(
          narrow(trx),
          users.flatMap((u) => u.roles),
          now,
        );
      });
    } catch (err) {
      mapUnique(err);
    }
  }
}
