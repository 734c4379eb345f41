import type { Kysely } from 'kysely';
import type { ReauthTables } from './tables.js';
import type { ReauthGrantRepo, ReauthPurpose } from './repository.js';

export class SqlReauthGrantRepo implements ReauthGrantRepo {
  constructor(private readonly db: Kysely<ReauthTables>) {}

  async put(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
    expiresAt: number,
    now: number,
  ): Promise<void> {
    // A user holds at most a few grants; dropping the expired ones here needs no sweeper.
    await this.db
      .deleteFrom('reauth_grants')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .execute();
    await this.db
      .insertInto('reauth_grants')
      .values({
        user_id: userId,
        session_key: sessionKey,
        purpose,
        expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'session_key', 'purpose'])
          .doUpdateSet({ expires_at: expiresAt }),
      )
      .execute();
  }

  async live(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
    now: number,
  ): Promise<boolean> {
    const row = await this.db
      .selectFrom('reauth_grants')
      .select('expires_at')
      .where('user_id', '=', userId)
      .where('session_key', '=', sessionKey)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  async remove(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
  ): Promise<void> {
    await this.db
      .deleteFrom('reauth_grants')
      .where('user_id', '=', userId)
      .where('session_key', '=', sessionKey)
      .where('purpose', '=', purpose)
      .execute();
  }

  async purgeExpired(now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('reauth_grants')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
