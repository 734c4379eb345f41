import type { Kysely } from 'kysely';

/**
 * The successor each rotation of a refresh token names when it uses the token up. A request
 * presenting a used token then tells a race (the successor not stored yet: the rotation is
 * still running, the client cannot hold it) from reuse (the successor stored) by the rows
 * alone, on every instance. Tokens used before this column existed have none: their rotations
 * finished long ago.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('successor_hash', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_tokens')
    .dropColumn('successor_hash')
    .execute();
}
