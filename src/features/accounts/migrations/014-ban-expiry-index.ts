import { sql, type Kysely } from 'kysely';

/**
 * Housekeeping lifts expired bans with one `UPDATE … WHERE banned_until <= now` (docs/api.md
 * §15). Without an index that statement reads every user row, and on SQLite it holds the write
 * lock while it does. Only banned-until-a-time rows are indexed, so the index stays as small as
 * the number of timed bans.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_banned_until')
    .on('users')
    .column('banned_until')
    .where(sql.ref('banned_until'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_banned_until').ifExists().execute();
}
