import type { Kysely } from 'kysely';
import type { AuditTables } from './tables.js';
import type { AuditEntry, AuditListFilter, AuditRepo } from './repository.js';
import { dayOf, perDay } from '../../platform/sql/per-day.js';

export class SqlAuditRepo implements AuditRepo {
  constructor(
    private readonly db: Kysely<AuditTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async append(e: Omit<AuditEntry, 'id'>): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        at: e.at,
        actor: e.actor,
        ip: e.ip,
        action: e.action,
        target: e.target,
        detail: JSON.stringify(e.detail),
      })
      .execute();
  }

  async list(f: AuditListFilter, offset: number, limit: number) {
    let q = this.db.selectFrom('audit_log');
    if (f.action) q = q.where('action', '=', f.action);
    if (f.actor) q = q.where('actor', '=', f.actor);
    if (f.target) q = q.where('target', '=', f.target);
    if (f.from !== undefined) q = q.where('at', '>=', f.from);
    if (f.to !== undefined) q = q.where('at', '<=', f.to);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
      q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const entries: AuditEntry[] = rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      actor: r.actor,
      ip: r.ip,
      action: r.action,
      target: r.target,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    }));
    return { entries, total: Number(count.n) };
  }

  async countPerDay(
    action: string,
    since: number,
  ): Promise<Array<{ day: string; count: number }>> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select([
        dayOf('at', this.kind).as('d'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('action', '=', action)
      .where('at', '>=', since)
      .groupBy('d')
      .orderBy('d')
      .execute();
    return perDay(rows);
  }
}
