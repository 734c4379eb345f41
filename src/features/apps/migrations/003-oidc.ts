import { sql, type Kysely } from 'kysely';

/**
 * The client fields of OpenID Connect (a share of migration 003, the OpenID Connect provider).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('grant_types', 'text', (c) =>
      c.notNull().defaultTo('["authorization_code","refresh_token"]'),
    )
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('token_endpoint_auth_method', 'text', (c) =>
      c.notNull().defaultTo('client_secret_basic'),
    )
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('post_logout_redirect_uris', 'text', (c) =>
      c.notNull().defaultTo('[]'),
    )
    .execute();

  // Apps created before this migration keep working: public ones authenticate with `none`.
  await sql`update apps set token_endpoint_auth_method = 'none' where client_type = 'public'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of [
    'grant_types',
    'token_endpoint_auth_method',
    'post_logout_redirect_uris',
  ])
    await db.schema.alterTable('apps').dropColumn(c).execute();
}
