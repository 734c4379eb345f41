import type { Kysely } from 'kysely';

/**
 * Back-Channel Logout 1.0 §2.7: a client takes part in a browser session once an ID token
 * naming its refresh family as `sid` is issued, whether or not it ever holds a refresh token
 * (a client with the authorization_code grant alone holds none). The family records that, so
 * the end of the session reaches it. 0 for families from before (they were told only while
 * they held a refresh token, as before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_families')
    .addColumn('issues_id_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_families')
    .dropColumn('issues_id_tokens')
    .execute();
}
