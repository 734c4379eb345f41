import { sql, type Kysely } from 'kysely';

/**
 * How each sign-in was made, for the `amr` claim of ID tokens issued on it (a share of
 * migration 008, sign-in with other accounts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // How each sign-in was made, for the `amr` claim of ID tokens issued on it.
  await db.schema
    .alterTable('sessions')
    .addColumn('method', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('method').execute();
}
