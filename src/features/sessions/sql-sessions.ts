import type { Kysely, Selectable } from 'kysely';
import { dayOf, perDay } from '../../platform/sql/per-day.js';
import type { SessionsTables, SessionsTable } from './tables.js';
import type { SessionRepo, SignInSession } from './repository.js';

function toSession(r: Selectable<SessionsTable>): SignInSession {
  return {
    id: r.id,
    userId: Number(r.user_id),
    app: r.app,
    createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_used_at),
    expiresAt: Number(r.expires_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    ip: r.ip,
    userAgent: r.user_agent,
    method: r.method,
  };
}

export class SqlSessionRepo implements SessionRepo {
  constructor(
    private readonly db: Kysely<SessionsTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async create(
    s: Omit<SignInSession, 'endedAt' | 'method'> & { method?: string },
  ): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id: s.id,
        user_id: s.userId,
        app: s.app,
        created_at: s.createdAt,
        last_used_at: s.lastUsedAt,
        expires_at: s.expiresAt,
        ip: s.ip,
        user_agent: s.userAgent,
        method: s.method ?? '',
      })
      .execute();
  }

  async findById(id: string): Promise<SignInSession | undefined> {
    const r = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toSession(r);
  }

  async listLive(
    userId: number,
    now: number,
    limit: number,
  ): Promise<SignInSession[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('ended_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toSession);
  }

  async touchMany(ids: string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('sessions')
      .set({ last_used_at: now })
      .where('id', 'in', ids)
      .where('last_used_at', '<', now)
      .execute();
  }

  async extend(id: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .where('expires_at', '<', expiresAt)
      .execute();
  }

  async end(id: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('sessions')
      .set({ ended_at: now })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async endAllOf(
    userId: number,
    now: number,
    keep?: string,
  ): Promise<string[]> {
    let q = this.db
      .updateTable('sessions')
      .set({ ended_at: now })
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now);
    if (keep !== undefined) q = q.where('id', '<>', keep);
    const rows = await q.returning('id').execute();
    return rows.map((r) => r.id);
  }

  async startedPerDay(
    since: number,
  ): Promise<Array<{ day: string; count: number }>> {
    const rows = await this.db
      .selectFrom('sessions')
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

  async deleteAllOf(userId: number): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .execute();
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
