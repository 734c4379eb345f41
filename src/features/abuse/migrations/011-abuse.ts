import type { Kysely } from 'kysely';

/**
 * Abuse protection (docs/api.md §16). `captcha_uses` holds the SHA-256 of each CAPTCHA
 * challenge whose solution was accepted: the primary key makes a second use fail on every
 * instance at once, and the row can go once the challenge has expired. `invites` are the
 * codes an administrator hands out when REGISTRATION=invite, kept as SHA-256; `used` is
 * raised by one conditional UPDATE, so parallel registrations never use a code more than
 * `uses` times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_uses')
    .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('captcha_uses_expires_at')
    .on('captcha_uses')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('uses', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('captcha_uses').execute();
}
