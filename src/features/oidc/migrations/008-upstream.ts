import type { Kysely } from 'kysely';

/**
 * The `amr` of the sign-in a refresh token descends from (a share of migration 008, sign-in
 * with other accounts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('amr', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('amr').execute();
}
