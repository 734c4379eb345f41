import { sql, type Kysely } from 'kysely';

/**
 * The reason and time an application was disabled, shown to its owner (a share of migration
 * 004).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('status_reason', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('')),
    )
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('status_changed_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['status_reason', 'status_changed_at'])
    await db.schema.alterTable('apps').dropColumn(c).execute();
}
