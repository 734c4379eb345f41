import type { Kysely } from 'kysely';
import { idColumn } from '../../../platform/sql/id-column.js';

/**
 * The audit trail (a share of migration 001, which created the first tables of every feature
 * together).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const withId = idColumn(db);

  await withId(db.schema.createTable('audit_log'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('ip', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('audit_log_at')
    .on('audit_log')
    .column('at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
}
