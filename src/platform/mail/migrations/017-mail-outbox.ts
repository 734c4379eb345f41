import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The mail outbox (src/platform/mail/mail-outbox.ts): every e-mail is written here and sent
 * by whichever instance leases it, so no request waits for the mail server and a message
 * outlives a server that is down and a restart. The message (recipient, subject and text,
 * which holds e-mail codes) is stored only sealed, and its row is deleted once sent; a message
 * given up keeps only the recipient's domain, its tries and the last error.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', sql.raw(postgres ? 'bigserial' : 'integer'), (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // AES-GCM under a key derived from JWT_SECRET; '' once given up.
    .addColumn('message_enc', 'text', (c) => c.notNull())
    .addColumn('recipient_domain', 'text', (c) => c.notNull())
    // 'pending' or 'failed' (given up); a sent message has no row.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // The instance sending it holds it until then; a crashed sender's lease simply runs out.
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    // The end of its retry window: a day after it was written, or when its code expires.
    .addColumn('give_up_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_outbox').ifExists().execute();
}
