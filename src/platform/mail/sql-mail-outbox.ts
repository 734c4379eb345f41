import type { Kysely, Selectable } from 'kysely';
import type { MailTables, MailOutboxTable } from './tables.js';
import type { MailOutboxRepo, QueuedMail } from './mail-outbox.js';

function toQueued(r: Selectable<MailOutboxTable>): QueuedMail {
  return {
    id: Number(r.id),
    sealed: r.message_enc,
    domain: r.recipient_domain,
    attempts: Number(r.attempts),
    createdAt: Number(r.created_at),
    giveUpAt: Number(r.give_up_at),
  };
}

export class SqlMailOutboxRepo implements MailOutboxRepo {
  constructor(
    private readonly db: Kysely<MailTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async add(
    mail: { sealed: string; domain: string; giveUpAt: number },
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('mail_outbox')
      .values({
        message_enc: mail.sealed,
        recipient_domain: mail.domain,
        status: 'pending',
        next_attempt_at: now,
        give_up_at: mail.giveUpAt,
        created_at: now,
      })
      .execute();
  }

  async claimDue(
    now: number,
    leaseMs: number,
    limit: number,
  ): Promise<QueuedMail[]> {
    // Nothing due is the usual case. A read takes no write lock, so an idle sender never holds
    // up the writes of another instance on the same SQLite file (or waits on them).
    const due = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('lease_until', '<=', now)
      .limit(1)
      .executeTakeFirst();
    if (!due) return [];
    // SQLite has one writer at a time, so the UPDATE alone is the lease; PostgreSQL skips rows
    // another instance is leasing this moment instead of waiting for them.
    const rows = await this.db
      .updateTable('mail_outbox')
      .set({ lease_until: now + leaseMs })
      .where(
        'id',
        'in',
        this.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where('lease_until', '<=', now)
          .orderBy('id')
          .limit(limit)
          .$if(this.kind === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      .where('status', '=', 'pending')
      .where('lease_until', '<=', now)
      .returningAll()
      .execute();
    return rows.map(toQueued).sort((a, b) => a.id - b.id);
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('mail_outbox').where('id', '=', id).execute();
  }

  async retryLater(
    id: number,
    attempts: number,
    nextAttemptAt: number,
    error: string,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({
        attempts,
        next_attempt_at: nextAttemptAt,
        lease_until: 0,
        last_error: error,
        last_attempt_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async giveUp(
    id: number,
    attempts: number,
    error: string,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({
        status: 'failed',
        message_enc: '',
        attempts,
        lease_until: 0,
        last_error: error,
        last_attempt_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async pending(): Promise<number> {
    const r = await this.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async purgeFailures(before: number): Promise<number> {
    const r = await this.db
      .deleteFrom('mail_outbox')
      .where('status', '=', 'failed')
      .where('last_attempt_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
