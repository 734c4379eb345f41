import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  ConsentsTable,
  Database,
  RefreshFamiliesTable,
  RefreshTokensTable,
  SigningKeysTable,
} from '../../platform/sql/schema.js';
import type {
  Consent,
  ConsentRepo,
  LiveRefreshFamily,
  PresentedRefreshToken,
  RefreshFamily,
  RefreshToken,
  RefreshTokenRepo,
  SigningKey,
  SigningKeyRepo,
} from './repository.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';

import { num } from '../../platform/sql/columns.js';
import { enqueueLogoutTokens } from '../../platform/sql/logout-outbox.js';

function toKey(r: Selectable<SigningKeysTable>): SigningKey {
  return {
    kid: r.kid,
    generation: Number(r.generation),
    alg: r.alg,
    publicJwk: r.public_jwk,
    privateJwkEnc: r.private_jwk_enc,
    createdAt: Number(r.created_at),
    retiredAt: num(r.retired_at),
  };
}

export class SqlSigningKeyRepo implements SigningKeyRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(k: Omit<SigningKey, 'retiredAt'>): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('signing_keys')
          .values({
            kid: k.kid,
            generation: k.generation,
            alg: k.alg,
            public_jwk: k.publicJwk,
            private_jwk_enc: k.privateJwkEnc,
            created_at: k.createdAt,
            retired_at: null,
          })
          .execute();
        await tx
          .updateTable('signing_keys')
          .set({ retired_at: k.createdAt })
          .where('generation', '<', k.generation)
          .where('retired_at', 'is', null)
          .execute();
      });
      return true;
    } catch (err) {
      try {
        mapUnique(err);
      } catch (mapped) {
        if (mapped instanceof UniqueViolation) return false;
        throw mapped;
      }
    }
  }

  async list(limit: number): Promise<SigningKey[]> {
    const rows = await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('generation', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toKey);
  }

  async current(): Promise<SigningKey | undefined> {
    return (await this.list(1))[0];
  }
}

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
  constructor(private readonly db: Kysely<Database>) {}

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

  /** The bulk revocations end what a person sees as signed in: the clients hear of it in the same transaction. */
  private revokeAndTell(
    revoke: (trx: Kysely<Database>) => Promise<{ family_id: string }[]>,
    now: number,
  ): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids = (await revoke(trx)).map((r) => r.family_id);
      await enqueueLogoutTokens(trx, { familyIds: ids }, now);
      return ids;
    });
  }

  /**
   * Back-Channel Logout 1.0 §2.7: a family granted `offline_access` outlives the sign-in (the
   * client asked to act while the person is away), so it is told of the logout but kept.
   */
  revokeFamiliesOfSession(
    sessionId: string,
    userId: number,
    now: number,
  ): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const ofSession = await trx
        .selectFrom('refresh_families')
        .select('family_id')
        .where('session_id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      if (ofSession.length === 0) return [];
      const all = ofSession.map((r) => r.family_id);
      const revoked = await trx
        .updateTable('refresh_families')
        .set({ revoked_at: now })
        .where('family_id', 'in', all)
        .where('revoked_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('refresh_tokens')
                .select('token_hash')
                .whereRef(
                  'refresh_tokens.family_id',
                  '=',
                  'refresh_families.family_id',
                )
                .where(
                  sql<string>`' ' || refresh_tokens.scope || ' '`,
                  'like',
                  '% offline_access %',
                ),
            ),
          ),
        )
        .returning('family_id')
        .execute();
      await enqueueLogoutTokens(trx, { familyIds: all }, now);
      return revoked.map((r) => r.family_id);
    });
  }

  revokeFamiliesOf(
    userId: number,
    clientId: string,
    now: number,
  ): Promise<string[]> {
    return this.revokeAndTell(
      (trx) =>
        trx
          .updateTable('refresh_families')
          .set({ revoked_at: now })
          .where('user_id', '=', userId)
          .where('client_id', '=', clientId)
          .where('revoked_at', 'is', null)
          .returning('family_id')
          .execute(),
      now,
    );
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
    return this.revokeAndTell(
      (trx) =>
        trx
          .updateTable('refresh_families')
          .set({ revoked_at: now })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .where('created_at', '>', createdAfter)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('refresh_tokens')
                .select('token_hash')
                .whereRef(
                  'refresh_tokens.family_id',
                  '=',
                  'refresh_families.family_id',
                )
                .where('refresh_tokens.expires_at', '>', now),
            ),
          )
          .returning('family_id')
          .execute(),
      now,
    );
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
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('refresh_tokens')
              .select('token_hash')
              .whereRef(
                'refresh_tokens.family_id',
                '=',
                'refresh_families.family_id',
              ),
          ),
        ),
      )
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

function toConsent(r: Selectable<ConsentsTable>): Consent {
  return {
    userId: Number(r.user_id),
    clientId: r.client_id,
    scopes: JSON.parse(r.scopes) as string[],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SqlConsentRepo implements ConsentRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async upsert(
    userId: number,
    clientId: string,
    scopes: string[],
    now: number,
  ): Promise<Consent> {
    const row = await this.db
      .insertInto('consents')
      .values({
        user_id: userId,
        client_id: clientId,
        scopes: JSON.stringify(scopes),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'client_id'])
          .doUpdateSet({ scopes: JSON.stringify(scopes), updated_at: now }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toConsent(row);
  }

  async find(userId: number, clientId: string): Promise<Consent | undefined> {
    const r = await this.db
      .selectFrom('consents')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return r && toConsent(r);
  }

  async listByUser(userId: number): Promise<Consent[]> {
    const rows = await this.db
      .selectFrom('consents')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('client_id')
      .execute();
    return rows.map(toConsent);
  }

  async delete(userId: number, clientId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('consents')
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}
