import type { Kysely } from 'kysely';

/**
 * One row per sign-in (a token family: the first token and every refresh of it), so a user
 * can see and end each one. The apps feature's share of this migration records why and when
 * an application was disabled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('sessions_user')
    .on('sessions')
    .columns(['user_id', 'expires_at'])
    .execute();

  await db.schema
    .createIndex('sessions_created_at')
    .on('sessions')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').ifExists().execute();
}
