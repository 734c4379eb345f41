import type { Kysely, Selectable } from 'kysely';
import type { AuthCodesTable, AuthorizationTables } from './tables.js';
import type { AuthCode, AuthCodeRepo, CodeFlow } from './repository.js';
import { num } from '../../platform/sql/columns.js';

function toAuthCode(r: Selectable<AuthCodesTable>): AuthCode {
  return {
    codeHash: r.code_hash,
    clientId: r.client_id,
    userId: Number(r.user_id),
    redirectUri: r.redirect_uri,
    scope: r.scope,
    codeChallenge: r.code_challenge,
    codeChallengeMethod: r.code_challenge_method,
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    tokenJti: r.token_jti,
    tokenExp: num(r.token_exp),
    replayedAt: num(r.replayed_at),
    createdAt: Number(r.created_at),
    flow: r.flow === 'oidc' ? 'oidc' : 'v1',
    nonce: r.nonce,
    authTime: num(r.auth_time),
    redirectUriGiven: Number(r.redirect_uri_given) === 1,
    refreshFamily: r.refresh_family,
    amr: r.amr,
    sessionId: r.session_id,
  };
}

/**
 * Codes of the v1 API are stored with the flow value `seed`, the name the column was created
 * with (migration 003); the value stays so that existing rows keep their meaning.
 */
function storedFlow(flow: CodeFlow | undefined): string {
  return flow === 'oidc' ? 'oidc' : 'seed';
}

export class SqlAuthCodeRepo implements AuthCodeRepo {
  constructor(private readonly db: Kysely<AuthorizationTables>) {}

  async create(c: Parameters<AuthCodeRepo['create']>[0]): Promise<void> {
    await this.db
      .insertInto('auth_codes')
      .values({
        code_hash: c.codeHash,
        client_id: c.clientId,
        user_id: c.userId,
        redirect_uri: c.redirectUri,
        scope: c.scope,
        code_challenge: c.codeChallenge,
        code_challenge_method: c.codeChallengeMethod,
        expires_at: c.expiresAt,
        created_at: c.createdAt,
        flow: storedFlow(c.flow),
        nonce: c.nonce ?? null,
        auth_time: c.authTime ?? null,
        redirect_uri_given: c.redirectUriGiven === false ? 0 : 1,
        amr: c.amr ?? null,
        session_id: c.sessionId ?? null,
      })
      .execute();
  }

  async findByHash(codeHash: string): Promise<AuthCode | undefined> {
    const r = await this.db
      .selectFrom('auth_codes')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return r && toAuthCode(r);
  }

  /** One conditional UPDATE: of concurrent callers exactly one uses the code up. */
  async consume(
    codeHash: string,
    now: number,
    token: { jti: string; exp: number },
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('auth_codes')
      .set({ used_at: now, token_jti: token.jti, token_exp: token.exp })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('flow', '=', storedFlow('v1'))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async consumeOidc(
    codeHash: string,
    now: number,
    issued: { jti: string; exp: number; refreshFamily: string | null },
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('auth_codes')
      .set({
        used_at: now,
        token_jti: issued.jti,
        token_exp: issued.exp,
        refresh_family: issued.refreshFamily,
      })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('flow', '=', storedFlow('oidc'))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async markReplayed(
    codeHash: string,
    now: number,
  ): Promise<AuthCode | undefined> {
    const r = await this.db
      .updateTable('auth_codes')
      .set({ replayed_at: now })
      .where('code_hash', '=', codeHash)
      .returningAll()
      .executeTakeFirst();
    return r && toAuthCode(r);
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('auth_codes')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
