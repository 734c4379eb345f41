import type { Kysely, Selectable } from 'kysely';
import type { AuthCodesTable, Database } from '../../platform/sql/schema.js';
import type { AuthCode, AuthCodeRepo, CodeFlow } from './repository.js';
import { compileOnce } from '../../platform/sql/compiled.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
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
  private readonly byHash;
  private readonly consumeUpdate;
  private readonly consumeOidcUpdate;
  private readonly insert;

  constructor(private readonly db: Kysely<Database>) {
    // Parameters in the order of this object's keys.
    this.insert = compileOnce(db, db.insertInto('auth_codes').values({
      code_hash: '', client_id: '', user_id: 0, redirect_uri: '', scope: '', code_challenge: '', code_challenge_method: '',
      expires_at: 0, created_at: 0, flow: 'seed', nonce: '', auth_time: 0, redirect_uri_given: 1, amr: '',
      session_id: '',
    }));
    this.byHash = compileOnce(db, db.selectFrom('auth_codes').selectAll().where('code_hash', '=', ''));
    // Parameters in builder order: used_at, token_jti, token_exp, code_hash, expires_at, flow.
    this.consumeUpdate = compileOnce(db, db.updateTable('auth_codes').set({ used_at: 0, token_jti: '', token_exp: 0 })
      .where('code_hash', '=', '').where('used_at', 'is', null).where('expires_at', '>', 0).where('flow', '=', 'seed'));
    // Parameters: used_at, token_jti, token_exp, refresh_family, code_hash, expires_at, flow.
    this.consumeOidcUpdate = compileOnce(db, db.updateTable('auth_codes').set({ used_at: 0, token_jti: '', token_exp: 0, refresh_family: '' })
      .where('code_hash', '=', '').where('used_at', 'is', null).where('expires_at', '>', 0).where('flow', '=', 'oidc'));
  }

  async create(c: Parameters<AuthCodeRepo['create']>[0]): Promise<void> {
    await this.insert(
      c.codeHash, c.clientId, c.userId, c.redirectUri, c.scope, c.codeChallenge, c.codeChallengeMethod, c.expiresAt, c.createdAt,
      storedFlow(c.flow), c.nonce ?? null, c.authTime ?? null, c.redirectUriGiven === false ? 0 : 1, c.amr ?? null,
      c.sessionId ?? null,
    );
  }

  async findByHash(codeHash: string): Promise<AuthCode | undefined> {
    const r = (await this.byHash(codeHash)).rows[0];
    return r && toAuthCode(r);
  }

  async consume(codeHash: string, now: number, token: { jti: string; exp: number }): Promise<boolean> {
    const res = await this.consumeUpdate(now, token.jti, token.exp, codeHash, now, 'seed');
    return Number(res.numAffectedRows) === 1;
  }

  async consumeOidc(codeHash: string, now: number, issued: { jti: string; exp: number; refreshFamily: string | null }): Promise<boolean> {
    const res = await this.consumeOidcUpdate(now, issued.jti, issued.exp, issued.refreshFamily, codeHash, now, 'oidc');
    return Number(res.numAffectedRows) === 1;
  }

  async markReplayed(codeHash: string, now: number): Promise<AuthCode | undefined> {
    const r = await this.db.updateTable('auth_codes').set({ replayed_at: now })
      .where('code_hash', '=', codeHash).returningAll().executeTakeFirst();
    return r && toAuthCode(r);
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db.deleteFrom('auth_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
