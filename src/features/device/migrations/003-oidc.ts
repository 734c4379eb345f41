import type { Kysely } from 'kysely';

/**
 * The scope a device-grant code asks for (a share of migration 003, the OpenID Connect
 * provider).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('device_codes')
    .addColumn('scope', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('device_codes').dropColumn('scope').execute();
}
