import type { Kysely } from 'kysely';

/**
 * Minecraft sign-in through the Yggdrasil API (docs/api.md §18): players' profiles, their
 * skins and capes, the API's access tokens, the joins a game server checks, and the site's
 * RSA key that signs profile properties. Joins are rows, not process memory, because the
 * player's `join` and the game server's `hasJoined` may reach different instances.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('minecraft_profiles')
    // The unsigned UUID (32 hex digits) the game knows the character by.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The name lower-cased on ASCII letters: names are unique ignoring case.
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('skin_hash', 'text')
    .addColumn('skin_model', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('cape_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('minecraft_profiles_user')
    .on('minecraft_profiles')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('minecraft_textures')
    // SHA-256 of the PNG file: the name it is served under.
    .addColumn('hash', 'text', (c) => c.primaryKey())
    // The PNG itself, base64 (at most 64 KiB before encoding), the same text type on both backends.
    .addColumn('png', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('minecraft_tokens')
    // SHA-256 of the opaque access token: the token itself is only with the launcher.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_token', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('profile_id', 'text')
    // A digest of the password hash at issue: a changed or reset password kills the token.
    .addColumn('password_mark', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('minecraft_tokens_user')
    .on('minecraft_tokens')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('minecraft_tokens_expires_at')
    .on('minecraft_tokens')
    .column('expires_at')
    .execute();

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

  // One row: the key every instance signs with, its private part sealed like the OpenID keys.
  await db.schema
    .createTable('minecraft_signing_key')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_pem', 'text', (c) => c.notNull())
    .addColumn('private_jwk_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'minecraft_signing_key',
    'minecraft_joins',
    'minecraft_tokens',
    'minecraft_textures',
    'minecraft_profiles',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
