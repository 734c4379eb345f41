import type { Kysely } from 'kysely';

/**
 * The center sign-in an authorization code came from (a share of migration 013, Back-Channel
 * Logout).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auth_codes')
    .addColumn('session_id', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_codes').dropColumn('session_id').execute();
}
