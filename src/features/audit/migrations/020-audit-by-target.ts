import type { Kysely } from 'kysely';

/** The providers page finds a provider's last failure by target without reading the whole log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('audit_log_target')
    .on('audit_log')
    .columns(['target', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_target').ifExists().execute();
}
