import type { Kysely } from 'kysely';

/**
 * What an authorization code records for OpenID Connect (a share of migration 003, the
 * OpenID Connect provider).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of [
    'flow',
    'nonce',
    'auth_time',
    'redirect_uri_given',
    'refresh_family',
  ])
    await db.schema.alterTable('auth_codes').dropColumn(c).execute();
}
