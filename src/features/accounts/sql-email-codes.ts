import type { Kysely, Selectable } from 'kysely';
import { asciiLower } from './account-rules.js';
import type { AccountsTables, EmailCodesTable } from './tables.js';
import type { EmailCode, EmailCodeRepo, EmailPurpose } from './repository.js';
import { num } from '../../platform/sql/columns.js';

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
  constructor(private readonly db: Kysely<AccountsTables>) {}

  async create(c: Parameters<EmailCodeRepo['create']>[0]): Promise<void> {
    await this.db
      .insertInto('email_codes')
      .values({
        email: asciiLower(c.email),
        purpose: c.purpose,
        code_hash: c.codeHash,
        attempts: 0,
        expires_at: c.expiresAt,
        created_at: c.createdAt,
      })
      .execute();
  }

  async findLatest(
    email: string,
    purpose: EmailPurpose,
    now: number,
  ): Promise<EmailCode | undefined> {
    const r = await this.db
      .selectFrom('email_codes')
      .selectAll()
      .where('email', '=', asciiLower(email))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r && toEmailCode(r);
  }

  async lastSentAt(email: string): Promise<number | undefined> {
    const r = await this.db
      .selectFrom('email_codes')
      .select('created_at')
      .where('email', '=', asciiLower(email))
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? Number(r.created_at) : undefined;
  }

  async takeTry(
    email: string,
    purpose: EmailPurpose,
    now: number,
    maxTries: number,
  ): Promise<{ id: number; codeHash: string } | undefined> {
    // One statement counts the try and checks the limit, so parallel tries cannot share a count.
    const r = await this.db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('email_codes as latest')
          .select('latest.id')
          .where('latest.email', '=', asciiLower(email))
          .where('latest.purpose', '=', purpose)
          .where('latest.used_at', 'is', null)
          .where('latest.expires_at', '>', now)
          .orderBy('latest.created_at', 'desc')
          .orderBy('latest.id', 'desc')
          .limit(1),
      )
      .where('attempts', '<', maxTries)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['id', 'code_hash'])
      .executeTakeFirst();
    return r && { id: Number(r.id), codeHash: r.code_hash };
  }

  async addAttempt(id: number): Promise<number> {
    const r = await this.db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirst();
    return r ? Number(r.attempts) : Number.MAX_SAFE_INTEGER;
  }

  async markUsed(id: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('email_codes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async purgeExpired(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('email_codes')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
