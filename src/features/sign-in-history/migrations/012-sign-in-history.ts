import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The sign-in history (docs/api.md §17): one row per completed sign-in, kept 90 days, read
 * newest first per account and searched for a browser or address seen before; and per
 * account, whether the person wants the e-mail notice of a sign-in from a new one and when
 * the account first signed in (which outlives the 90 days of the rows: an account back after
 * a long pause is not taken for a new one, whose first sign-in sends no notice).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('sign_ins')
    .addColumn('id', sql.raw(pg ? 'bigserial' : 'integer'), (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sign_ins_user_at')
    .on('sign_ins')
    .columns(['user_id', 'at'])
    .execute();
  // The purge deletes by time across every account.
  await db.schema
    .createIndex('sign_ins_at')
    .on('sign_ins')
    .column('at')
    .execute();

  await db.schema
    .createTable('sign_in_accounts')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('notice_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_sign_in_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sign_in_accounts', 'sign_ins'])
    await db.schema.dropTable(t).ifExists().execute();
}
