import { sql, type Kysely } from 'kysely';

/**
 * Sign-in with other accounts (docs/api.md §14): the providers an administrator configured,
 * the links from a provider's subject to a user, and the short-lived rows of a browser flow
 * (the `state` handed to the provider, and the tickets the pages finish a sign-in with).
 * Flows are rows, not process memory, because the provider may send the browser back to
 * another instance than the one that sent it away.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    // AES-GCM under a key derived from JWT_SECRET: a database dump alone gives no secret.
    .addColumn('client_secret_enc', 'text')
    .addColumn('api_key_enc', 'text')
    .addColumn('issuer', 'text')
    .addColumn('scopes', 'text')
    // Endpoint overrides and per-type options, as JSON.
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo(sql.lit('{}')))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('upstream_links')
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('')),
    )
    .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addPrimaryKeyConstraint('upstream_links_pkey', ['provider_id', 'subject'])
    .execute();

  // A user holds at most one subject per provider.
  await db.schema
    .createIndex('upstream_links_user')
    .on('upstream_links')
    .columns(['user_id', 'provider_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('upstream_flows')
    // SHA-256 of the state or ticket: the value itself travels only through the browser.
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    // SHA-256 of the browser's binding cookie: a state or ticket works only in the browser that began it.
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('session_key', 'text')
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo(sql.lit('{}')))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createIndex('upstream_flows_expires_at')
    .on('upstream_flows')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['upstream_flows', 'upstream_links', 'upstream_providers'])
    await db.schema.dropTable(t).ifExists().execute();
}
