import type { Kysely } from 'kysely';
import { idColumn } from '../../../platform/sql/id-column.js';

/**
 * The first tables of accounts: users and the e-mail codes sent to them. Migration 001 created
 * the first tables of every feature together; each feature keeps its share.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const withId = idColumn(db);

  await withId(db.schema.createTable('users'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('users_updated_at')
    .on('users')
    .column('updated_at')
    .execute();

  await withId(db.schema.createTable('email_codes'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('email_codes_lookup')
    .on('email_codes')
    .columns(['email', 'purpose', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['email_codes', 'users'])
    await db.schema.dropTable(t).ifExists().execute();
}
