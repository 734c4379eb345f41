import { sql, type Kysely } from 'kysely';

/**
 * The admin scopes of an application and its back-channel logout address (a share of
 * migration 009, moderation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Which scopes of the admin API an application's client_credentials tokens may use.
  await db.schema
    .alterTable('apps')
    .addColumn('admin_scopes', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('')),
    )
    .execute();

  // OpenID Connect Back-Channel Logout 1.0: where the client wants its logout tokens.
  await db.schema
    .alterTable('apps')
    .addColumn('backchannel_logout_uri', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('')),
    )
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('backchannel_logout_session_required', 'integer', (c) =>
      c.notNull().defaultTo(0),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of [
    'admin_scopes',
    'backchannel_logout_uri',
    'backchannel_logout_session_required',
  ])
    await db.schema.alterTable('apps').dropColumn(c).execute();
}
