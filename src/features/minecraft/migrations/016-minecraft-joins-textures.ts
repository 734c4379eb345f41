import type { Kysely } from 'kysely';

/**
 * Minecraft (docs/api.md §18). A join is the pair of a server id and a profile: two players
 * joining under one server id each keep their own row, where one row per server id let the
 * second replace the first. Joins live 30 s, so the table is made anew rather than converted.
 * Textures are deleted once no profile uses them, which asks "does a profile use this hash?"
 * on every change and in housekeeping: the two hash columns are indexed for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('minecraft_joins').execute();
  await db.schema
    .createTable('minecraft_joins')
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('minecraft_joins_pk', ['server_id', 'profile_id'])
    .execute();
  await db.schema
    .createIndex('minecraft_joins_expires_at')
    .on('minecraft_joins')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('minecraft_profiles_skin_hash')
    .on('minecraft_profiles')
    .column('skin_hash')
    .execute();
  await db.schema
    .createIndex('minecraft_profiles_cape_hash')
    .on('minecraft_profiles')
    .column('cape_hash')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .dropIndex('minecraft_profiles_cape_hash')
    .ifExists()
    .execute();
  await db.schema
    .dropIndex('minecraft_profiles_skin_hash')
    .ifExists()
    .execute();
  await db.schema.dropTable('minecraft_joins').execute();
  await db.schema
    .createTable('minecraft_joins')
    .addColumn('server_id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('minecraft_joins_expires_at')
    .on('minecraft_joins')
    .column('expires_at')
    .execute();
}
