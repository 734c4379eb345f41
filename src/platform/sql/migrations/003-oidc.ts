import { sql, type Kysely } from 'kysely';

/** The OpenID Connect provider: signing keys, refresh tokens and their families, consents, client fields. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // `generation` orders the keys and is unique, so instances racing to create the first key
  // (or to rotate) cannot both succeed: the loser re-reads the winner's key.
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull().unique())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();

  await db.schema
    .alterTable('auth_codes')
    .addColumn('flow', 'text', (c) => c.notNull().defaultTo('seed'))
    .execute();
  await db.schema.alterTable('auth_codes').addColumn('nonce', 'text').execute();
  await db.schema
    .alterTable('auth_codes')
    .addColumn('auth_time', 'bigint')
    .execute();
  await db.schema
    .alterTable('auth_codes')
    .addColumn('redirect_uri_given', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('auth_codes')
    .addColumn('refresh_family', 'text')
    .execute();

  await db.schema
    .createTable('refresh_families')
    .addColumn('family_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('refresh_families_user_client')
    .on('refresh_families')
    .columns(['user_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_family')
    .on('refresh_tokens')
    .column('family_id')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_expires_at')
    .on('refresh_tokens')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('consents')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consents_pkey', ['user_id', 'client_id'])
    .execute();

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

  await db.schema
    .alterTable('device_codes')
    .addColumn('scope', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'consents',
    'refresh_tokens',
    'refresh_families',
    'signing_keys',
  ])
    await db.schema.dropTable(t).ifExists().execute();
  for (const c of [
    'flow',
    'nonce',
    'auth_time',
    'redirect_uri_given',
    'refresh_family',
  ])
    await db.schema.alterTable('auth_codes').dropColumn(c).execute();
  for (const c of [
    'grant_types',
    'token_endpoint_auth_method',
    'post_logout_redirect_uris',
  ])
    await db.schema.alterTable('apps').dropColumn(c).execute();
  await db.schema.alterTable('device_codes').dropColumn('scope').execute();
}
