import type { Kysely } from 'kysely';

/**
 * The `amr` of the sign-in a code was issued on (a share of migration 008, sign-in with other
 * accounts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_codes').addColumn('amr', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_codes').dropColumn('amr').execute();
}
