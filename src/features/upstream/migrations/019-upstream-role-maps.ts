import { sql, type Kysely } from 'kysely';

/**
 * Role maps of sign-in providers: each link remembers which roles its provider's map gave, so
 * a map takes away only what it gave and never a role given by hand.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('upstream_links')
    .addColumn('granted_roles', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('[]')),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('upstream_links')
    .dropColumn('granted_roles')
    .execute();
}
