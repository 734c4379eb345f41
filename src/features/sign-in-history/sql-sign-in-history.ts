import { sql, type Kysely } from 'kysely';
import type { SignInHistoryTables } from './tables.js';
import type {
  Familiarity,
  SignInHistoryRepo,
  SignInRecord,
} from './repository.js';

export class SqlSignInHistoryRepo implements SignInHistoryRepo {
  constructor(private readonly db: Kysely<SignInHistoryTables>) {}

  async append(r: SignInRecord): Promise<void> {
    await this.db
      .insertInto('sign_ins')
      .values({
        user_id: r.userId,
        at: r.at,
        ip: r.ip,
        user_agent: r.userAgent,
        method: r.method,
      })
      .execute();
  }

  async listRecent(
    userId: number,
    since: number,
    limit: number,
  ): Promise<SignInRecord[]> {
    const rows = await this.db
      .selectFrom('sign_ins')
      .select(['user_id', 'at', 'ip', 'user_agent', 'method'])
      .where('user_id', '=', userId)
      .where('at', '>=', since)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      userId: Number(r.user_id),
      at: Number(r.at),
      ip: r.ip,
      userAgent: r.user_agent,
      method: r.method,
    }));
  }

  async familiarity(
    userId: number,
    since: number,
    ip: string,
    userAgent: string,
  ): Promise<Familiarity> {
    const row = await this.db
      .selectFrom('sign_ins')
      .select([
        sql<number>`coalesce(sum(case when user_agent = ${userAgent} then 1 else 0 end), 0)`.as(
          'same_browser',
        ),
        sql<number>`coalesce(sum(case when ip = ${ip} then 1 else 0 end), 0)`.as(
          'same_address',
        ),
      ])
      .where('user_id', '=', userId)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return {
      sameBrowser: Number(row.same_browser),
      sameAddress: Number(row.same_address),
    };
  }

  async purgeOlderThan(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('sign_ins')
      .where('at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async deleteAllOf(userId: number): Promise<void> {
    await this.db
      .deleteFrom('sign_ins')
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('sign_in_accounts')
      .where('user_id', '=', userId)
      .execute();
  }

  async claimFirstSignIn(userId: number, at: number): Promise<boolean> {
    // The row may come from the notice setting, saved before any sign-in: it is claimed
    // when its first sign-in is still unset, in the same statement.
    const claimed = await this.db
      .insertInto('sign_in_accounts')
      .values({ user_id: userId, first_sign_in_at: at })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ first_sign_in_at: at })
          .where('sign_in_accounts.first_sign_in_at', 'is', null),
      )
      .executeTakeFirst();
    return Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async noticeEnabled(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('sign_in_accounts')
      .select('notice_enabled')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row === undefined || Number(row.notice_enabled) === 1;
  }

  async setNoticeEnabled(userId: number, enabled: boolean): Promise<void> {
    const value = enabled ? 1 : 0;
    await this.db
      .insertInto('sign_in_accounts')
      .values({
        user_id: userId,
        notice_enabled: value,
        first_sign_in_at: null,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ notice_enabled: value }),
      )
      .execute();
  }
}
