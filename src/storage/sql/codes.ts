import type { Kysely, Selectable } from 'kysely';
import { asciiLower } from '../../domain/accounts.js';
import type { AuthCodesTable, Database, DeviceCodesTable, EmailCodesTable } from './schema.js';
import type {
  AuthCode, AuthCodeRepo, DeviceCode, DeviceCodeRepo, DeviceStatus, EmailCode, EmailCodeRepo, EmailPurpose,
} from '../types.js';
import { compileOnce } from './compiled.js';
import { mapUnique } from './errors.js';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

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
    flow: r.flow === 'oidc' ? 'oidc' : 'seed',
    nonce: r.nonce,
    authTime: num(r.auth_time),
    redirectUriGiven: Number(r.redirect_uri_given) === 1,
    refreshFamily: r.refresh_family,
  };
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
      expires_at: 0, created_at: 0, flow: 'seed', nonce: '', auth_time: 0, redirect_uri_given: 1,
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
      c.flow ?? 'seed', c.nonce ?? null, c.authTime ?? null, c.redirectUriGiven === false ? 0 : 1,
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

function toDevice(r: Selectable<DeviceCodesTable>): DeviceCode {
  return {
    deviceCodeHash: r.device_code_hash,
    userCode: r.user_code,
    clientId: r.client_id,
    status: r.status as DeviceStatus,
    userId: num(r.user_id),
    interval: Number(r.interval),
    lastPollAt: num(r.last_poll_at),
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
    scope: r.scope,
  };
}

export class SqlDeviceCodeRepo implements DeviceCodeRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(c: Parameters<DeviceCodeRepo['create']>[0]): Promise<void> {
    try {
      await this.db.insertInto('device_codes').values({
        device_code_hash: c.deviceCodeHash,
        user_code: c.userCode,
        client_id: c.clientId,
        status: 'pending',
        interval: c.interval,
        expires_at: c.expiresAt,
        created_at: c.createdAt,
        scope: c.scope ?? null,
      }).execute();
    } catch (err) {
      mapUnique(err);
    }
  }

  async releaseUserCode(userCode: string, now: number): Promise<void> {
    await this.db.deleteFrom('device_codes').where('user_code', '=', userCode)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('status', 'in', ['used', 'denied'])]))
      .execute();
  }

  async findByHash(h: string): Promise<DeviceCode | undefined> {
    const r = await this.db.selectFrom('device_codes').selectAll().where('device_code_hash', '=', h).executeTakeFirst();
    return r && toDevice(r);
  }

  async findLiveByUserCode(userCode: string, now: number): Promise<DeviceCode | undefined> {
    const r = await this.db.selectFrom('device_codes').selectAll()
      .where('user_code', '=', userCode).where('expires_at', '>', now).executeTakeFirst();
    return r && toDevice(r);
  }

  async transition(h: string, from: DeviceStatus, to: DeviceStatus, userId?: number): Promise<boolean> {
    const res = await this.db.updateTable('device_codes')
      .set({ status: to, ...(userId !== undefined && { user_id: userId }) })
      .where('device_code_hash', '=', h).where('status', '=', from).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async recordPoll(h: string, now: number, interval: number): Promise<void> {
    await this.db.updateTable('device_codes').set({ last_poll_at: now, interval })
      .where('device_code_hash', '=', h).execute();
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db.deleteFrom('device_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

function toEmailCode(r: Selectable<EmailCodesTable>): EmailCode {
  return {
    id: Number(r.id),
    email: r.email,
    purpose: r.purpose as EmailPurpose,
    codeHash: r.code_hash,
    attempts: Number(r.attempts),
    expiresAt: Number(r.expires_at),
    usedAt: num(r.used_at),
    createdAt: Number(r.created_at),
  };
}

export class SqlEmailCodeRepo implements EmailCodeRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(c: Parameters<EmailCodeRepo['create']>[0]): Promise<void> {
    await this.db.insertInto('email_codes').values({
      email: asciiLower(c.email),
      purpose: c.purpose,
      code_hash: c.codeHash,
      attempts: 0,
      expires_at: c.expiresAt,
      created_at: c.createdAt,
    }).execute();
  }

  async findLatest(email: string, purpose: EmailPurpose, now: number): Promise<EmailCode | undefined> {
    const r = await this.db.selectFrom('email_codes').selectAll()
      .where('email', '=', asciiLower(email)).where('purpose', '=', purpose)
      .where('used_at', 'is', null).where('expires_at', '>', now)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return r && toEmailCode(r);
  }

  async lastSentAt(email: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('email_codes').select('created_at')
      .where('email', '=', asciiLower(email)).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    return r ? Number(r.created_at) : undefined;
  }

  async takeTry(email: string, purpose: EmailPurpose, now: number, maxTries: number): Promise<{ id: number; codeHash: string } | undefined> {
    // One statement counts the try and checks the limit, so parallel tries cannot share a count.
    const r = await this.db.updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', (eb) => eb.selectFrom('email_codes as latest').select('latest.id')
        .where('latest.email', '=', asciiLower(email)).where('latest.purpose', '=', purpose)
        .where('latest.used_at', 'is', null).where('latest.expires_at', '>', now)
        .orderBy('latest.created_at', 'desc').orderBy('latest.id', 'desc').limit(1))
      .where('attempts', '<', maxTries).where('used_at', 'is', null).where('expires_at', '>', now)
      .returning(['id', 'code_hash']).executeTakeFirst();
    return r && { id: Number(r.id), codeHash: r.code_hash };
  }

  async addAttempt(id: number): Promise<number> {
    const r = await this.db.updateTable('email_codes').set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id).returning('attempts').executeTakeFirst();
    return r ? Number(r.attempts) : Number.MAX_SAFE_INTEGER;
  }

  async markUsed(id: number, now: number): Promise<boolean> {
    const res = await this.db.updateTable('email_codes').set({ used_at: now })
      .where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db.deleteFrom('email_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
