import type { Kysely } from 'kysely';
import type { SessionsTables } from './tables.js';
import type { RevocationRepo } from './repository.js';

export class SqlRevocationRepo implements RevocationRepo {
  constructor(private readonly db: Kysely<SessionsTables>) {}

  async revoke(
    jti: string,
    userId: number,
    exp: number,
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('revoked_tokens')
      .values({ jti, user_id: userId, exp, revoked_at: now })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }

  async isRevoked(jti: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('revoked_tokens')
      .select('jti')
      .where('jti', '=', jti)
      .executeTakeFirst();
    return r !== undefined;
  }

  async revokedSince(since: number, nowSeconds: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('revoked_tokens')
      .select('jti')
      .where('revoked_at', '>=', since)
      .where('exp', '>', nowSeconds)
      .execute();
    return rows.map((r) => r.jti);
  }

  async purgeExpired(nowSeconds: number): Promise<number> {
    const res = await this.db
      .deleteFrom('revoked_tokens')
      .where('exp', '<=', nowSeconds)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
