import { sql, type Kysely } from 'kysely';
import { compileOnce } from '../../platform/sql/compiled.js';
import type { Database } from '../../platform/sql/schema.js';
import type { Familiarity, SignInHistoryRepo, SignInRecord } from './repository.js';

export class SqlSignInHistoryRepo implements SignInHistoryRepo {
  /** Every sign-in appends a row: compiled once, parameters in column order. */
  private readonly insert;

  constructor(private readonly db: Kysely<Database>) {
    this.insert = compileOnce(db, db.insertInto('sign_ins').values({ user_id: 0, at: 0, ip: '', user_agent: '', method: '' }));
  }

  async append(r: SignInRecord): Promise<void> {
    await this.insert(r.userId, r.at, r.ip, r.userAgent, r.method);
  }

  async listRecent(userId: number, since: number, limit: number): Promise<SignInRecord[]> {
    const rows = await this.db.selectFrom('sign_ins').select(['user_id', 'at', 'ip', 'user_agent', 'method'])
      .where('user_id', '=', userId).where('at', '>=', since)
      .orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ userId: Number(r.user_id), at: Number(r.at), ip: r.ip, userAgent: r.user_agent, method: r.method }));
  }

  async familiarity(userId: number, since: number, ip: string, userAgent: string): Promise<Familiarity> {
    const row = await this.db.selectFrom('sign_ins')
      .select([
        (eb) => eb.fn.countAll<number>().as('total'),
        sql<number>`coalesce(sum(case when user_agent = ${userAgent} then 1 else 0 end), 0)`.as('same_browser'),
        sql<number>`coalesce(sum(case when ip = ${ip} then 1 else 0 end), 0)`.as('same_address'),
      ])
      .where('user_id', '=', userId).where('at', '>=', since).executeTakeFirstOrThrow();
    return { total: Number(row.total), sameBrowser: Number(row.same_browser), sameAddress: Number(row.same_address) };
  }

  async purgeOlderThan(before: number): Promise<number> {
    const res = await this.db.deleteFrom('sign_ins').where('at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async deleteAllOf(userId: number): Promise<void> {
    await this.db.deleteFrom('sign_ins').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('sign_in_notice_settings').where('user_id', '=', userId).execute();
  }

  async noticeEnabled(userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('sign_in_notice_settings').select('enabled').where('user_id', '=', userId).executeTakeFirst();
    return row === undefined || Number(row.enabled) === 1;
  }

  async setNoticeEnabled(userId: number, enabled: boolean): Promise<void> {
    const value = enabled ? 1 : 0;
    await this.db.insertInto('sign_in_notice_settings').values({ user_id: userId, enabled: value })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ enabled: value })).execute();
  }
}
