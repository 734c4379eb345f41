import type { Kysely } from 'kysely';

/**
 * Re-authentication grants: the first step of a two-step account change (passkey options,
 * authenticator setup, e-mail code) proved the password; the second step, in the same
 * session and within minutes, finds the grant here. Rows, not process memory, because
 * several instances serve one database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reauth_grants')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    // The token's `sid`, or its `jti` for a token from before sessions.
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reauth_grants_pk', [
      'user_id',
      'session_key',
      'purpose',
    ])
    .execute();
  await db.schema
    .createIndex('reauth_grants_expires_at')
    .on('reauth_grants')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reauth_grants').ifExists().execute();
}
