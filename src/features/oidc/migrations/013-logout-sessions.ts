import type { Kysely } from 'kysely';

/**
 * Back-Channel Logout 1.0 (docs/api.md §12.8): which sign-in at the center an OpenID Connect
 * authorization came from. The code records the browser session's id and the refresh family
 * started from it keeps it, so ending that session reaches exactly the clients it signed in.
 * Null for codes and families from before, and for the device grant (no browser session).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_families')
    .addColumn('session_id', 'text')
    .execute();

  await db.schema
    .createIndex('refresh_families_session')
    .on('refresh_families')
    .column('session_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('refresh_families_session').ifExists().execute();
  await db.schema
    .alterTable('refresh_families')
    .dropColumn('session_id')
    .execute();
}
