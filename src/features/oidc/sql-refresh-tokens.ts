import { sql, type Kysely, type Selectable } from 'kysely';
import type { RefreshFamiliesTable, RefreshTokensTable } from './tables.js';
import type {
  LiveRefreshFamily,
  PresentedRefreshToken,
  RefreshFamily,
  RefreshToken,
  RefreshTokenRepo,
} from './repository.js';
import type { LogoutOutboxTables } from './logout-outbox.js';
import {
  revokeFamiliesOf,
  revokeFamiliesOfSession,
  revokeLiveFamiliesOf,
  tokensOfFamily,
} from './sql-family-revocations.js';
import { num } from '../../platform/sql/columns.js';

function toFamily(r: Selectable<RefreshFamiliesTable>): RefreshFamily {
  return {
    familyId: r.family_id,
    userId: Number(r.user_id),
    clientId: r.client_id,
    createdAt: Number(r.created_at),
    revokedAt: num(r.revoked_at),
  };
}

function toRefresh(r: Selectable<RefreshTokensTable>): RefreshToken {
  return {
    tokenHash: r.token_hash,
    familyId: r.family_id,
    clientId: r.client_id,
    userId: Number(r.user_id),
    scope: r.scope,
    authTime: Number(r.auth_time),
    amr: r.amr,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    revokedAt: num(r.revoked_at),
  };
}

const FAMILY_KEEP_MS = 7 * 24 * 3600_000;

export class SqlRefreshTokenRepo implements RefreshTokenRepo {
  constructor(private readonly db: Kysely<LogoutOutboxTables>) {}

  async createFamily(f: Omit<RefreshFamily, 'revokedAt'>): Promise<void> {
    await this.db
      .insertInto('refresh_families')
      .values({
        family_id: f.familyId,
        user_id: f.userId,
        client_id: f.clientId,
        created_at: f.createdAt,
        revoked_at: null,
        session_id: f.sessionId ?? null,
        issues_id_tokens: f.issuesIdTokens === true ? 1 : 0,
      })
      .execute();
  }

  async findFamily(familyId: string): Promise<RefreshFamily | undefined> {
    const r = await this.db
      .selectFrom('refresh_families')
      .selectAll()
      .where('family_id', '=', familyId)
      .executeTakeFirst();
    return r && toFamily(r);
  }

  async revokeFamily(familyId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('refresh_families')
      .set({ revoked_at: now })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  revokeFamiliesOfSession(
    sessionId: string,
    userId: number,
    now: number,
  ): Promise<string[]> {
    return revokeFamiliesOfSession(this.db, sessionId, userId, now);
  }

  revokeFamiliesOf(
    userId: number,
    clientId: string,
    now: number,
  ): Promise<string[]> {
    return revokeFamiliesOf(this.db, userId, clientId, now);
  }

  async listLiveFamilies(
    userId: number,
    now: number,
    createdAfter: number,
    limit: number,
  ): Promise<LiveRefreshFamily[]> {
    const rows = await this.db
      .selectFrom('refresh_families as f')
      .innerJoin('refresh_tokens as t', 't.family_id', 'f.family_id')
      .select(({ fn }) => [
        'f.family_id',
        'f.client_id',
        'f.created_at',
        fn.max('t.created_at').as('last_used_at'),
      ])
      .where('f.user_id', '=', userId)
      .where('f.revoked_at', 'is', null)
      .where('f.created_at', '>', createdAfter)
      .groupBy(['f.family_id', 'f.client_id', 'f.created_at'])
      .having(({ fn }) => fn.max('t.expires_at'), '>', now)
      .orderBy('f.created_at', 'desc')
      .orderBy('f.family_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      familyId: r.family_id,
      clientId: r.client_id,
      createdAt: Number(r.created_at),
      lastUsedAt: Number(r.last_used_at),
    }));
  }

  revokeLiveFamiliesOf(
    userId: number,
    now: number,
    createdAfter: number,
  ): Promise<string[]> {
    return revokeLiveFamiliesOf(this.db, userId, now, createdAfter);
  }

  async create(t: Parameters<RefreshTokenRepo['create']>[0]): Promise<void> {
    await this.db
      .insertInto('refresh_tokens')
      .values({
        token_hash: t.tokenHash,
        family_id: t.familyId,
        client_id: t.clientId,
        user_id: t.userId,
        scope: t.scope,
        auth_time: t.authTime,
        created_at: t.createdAt,
        expires_at: t.expiresAt,
        used_at: null,
        revoked_at: null,
        amr: t.amr ?? null,
      })
      .execute();
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | undefined> {
    const r = await this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return r && toRefresh(r);
  }

  async findPresented(
    tokenHash: string,
  ): Promise<PresentedRefreshToken | undefined> {
    const r = await this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .select(
        sql<number>`case when refresh_tokens.used_at is null then 0 when refresh_tokens.successor_hash is null then 1
        when exists (select 1 from refresh_tokens successor where successor.token_hash = refresh_tokens.successor_hash) then 1
        else 0 end`.as('successor_stored'),
      )
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      r && {
        ...toRefresh(r),
        successorHash: r.successor_hash,
        successorStored: Number(r.successor_stored) === 1,
      }
    );
  }

  async use(
    tokenHash: string,
    now: number,
    successorHash: string,
  ): Promise<RefreshToken | undefined> {
    const r = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now, successor_hash: successorHash })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('refresh_families')
              .select('family_id')
              .whereRef(
                'refresh_families.family_id',
                '=',
                'refresh_tokens.family_id',
              )
              .where('refresh_families.revoked_at', 'is not', null),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
    return r && toRefresh(r);
  }

  async latestInFamily(familyId: string): Promise<RefreshToken | undefined> {
    // Times are whole milliseconds and a fast client rotates within one: on a tie the token not
    // used yet is the newer (a token is used up before its successor is stored).
    const r = await this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('family_id', '=', familyId)
      .orderBy('created_at', 'desc')
      .orderBy(sql`case when used_at is null then 0 else 1 end`)
      .orderBy('token_hash', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r && toRefresh(r);
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('refresh_tokens')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    // A family whose every token is gone cannot be refreshed again; its row is kept a week longer
    // because the access tokens naming it (as `sid`) are only live while the row is, and as long
    // as the center sign-in it came from lives, whose end its client is told of (logout-outbox.ts).
    await this.db
      .deleteFrom('refresh_families')
      .where((eb) => eb.not(eb.exists(tokensOfFamily(eb))))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('sessions')
              .select('sessions.id')
              .whereRef('sessions.id', '=', 'refresh_families.session_id')
              .where('sessions.expires_at', '>', before),
          ),
        ),
      )
      .where('created_at', '<', before - FAMILY_KEEP_MS)
      .execute();
    return Number(res.numDeletedRows);
  }
}
