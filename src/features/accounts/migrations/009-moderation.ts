import { sql, type Kysely } from 'kysely';

/**
 * A ban's reason and end on the user row (a share of migration 009, moderation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('ban_reason', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    .execute();

  // Null: a permanent ban (or none). A ban whose end has passed is over without any write.
  await db.schema
    .alterTable('users')
    .addColumn('banned_until', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['ban_reason', 'banned_until'])
    await db.schema.alterTable('users').dropColumn(c).execute();
}
