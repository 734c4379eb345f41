import { sql, type Kysely } from 'kysely';

/** Apps gain `required_roles`, a JSON array of role names (empty: everyone may use the app). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('required_roles', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('[]')),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').dropColumn('required_roles').execute();
}
