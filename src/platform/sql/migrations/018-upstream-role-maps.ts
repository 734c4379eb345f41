import { sql, type Kysely } from 'kysely';

/**
 * Role maps of sign-in providers: each link remembers which roles its provider's map gave, so
 * a map takes away only what it gave and never a role given by hand. The audit log is indexed
 * by target, so the providers page finds a provider's last failure without reading it all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('upstream_links')
    .addColumn('granted_roles', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('[]')),
    )
    .execute();
  await db.schema
    .createIndex('audit_log_target')
    .on('audit_log')
    .columns(['target', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_target').ifExists().execute();
  await db.schema
    .alterTable('upstream_links')
    .dropColumn('granted_roles')
    .execute();
}
