import { sql, type Kysely } from 'kysely';
import { asciiLower } from './account-rules.js';
import type { Database } from '../../platform/sql/schema.js';
import type {
  ImportedUser,
  NewUser,
  User,
  UserPatch,
  UserRepo,
} from './repository.js';
import { enqueueEvents, type OutboxEvent } from '../../platform/sql/outbox.js';
import {
  enqueueLogoutTokens,
  SESSION_ENDING_EVENTS,
} from '../../platform/sql/logout-outbox.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { dayOf, perDay } from '../../platform/sql/per-day.js';
import {
  emailKeyOf,
  insertUser,
  likePattern,
  newUserRow,
  toUser,
} from './user-rows.js';
import { joinCatalogue } from './join-catalogue.js';

export class SqlUserRepo implements UserRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

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
    if (events.length === 0) return this.updateRow(this.db, id, p, now);
    await this.db.transaction().execute(async (trx) => {
      // A change that ends every session of the person logs out the clients holding their
      // tokens (Back-Channel Logout): their families are picked before the cut-off moves.
      if (events.some((e) => SESSION_ENDING_EVENTS.includes(e.type)))
        await enqueueLogoutTokens(trx, { liveOfUser: id }, now);
      await this.updateRow(trx, id, p, now);
      await enqueueEvents(trx, events, now);
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
      await this.updateRow(trx, id, { roles }, now);
      await enqueueEvents(trx, events, now);
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
      for (const user of lifted) await enqueueEvents(trx, eventsOf(user), now);
      return lifted;
    });
  }

  private async updateRow(
    db: Kysely<Database>,
    id: number,
    p: UserPatch,
    now: number,
  ): Promise<void> {
    // A role given that the catalogue does not list yet joins it (docs/api.md, roles).
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
          trx,
          users.flatMap((u) => u.roles),
          now,
        );
      });
    } catch (err) {
      mapUnique(err);
    }
  }
}
