import type { Kysely } from 'kysely';

/**
 * The tokens revoked before they expire (a share of migration 001, which created the first
 * tables of every feature together).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('exp', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('revoked_tokens_revoked_at')
    .on('revoked_tokens')
    .column('revoked_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('revoked_tokens').ifExists().execute();
}
