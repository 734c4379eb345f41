import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The role catalogue (docs/api.md §19): every role name with its display names in both
 * languages and a description, so the console and the `roles` claim speak of roles an
 * administrator can see. `player` and `admin` are built in; every role some user already
 * holds enters the catalogue here, with its name as display names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('roles')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('display_name_en', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  const now = Date.now();
  await sql`insert into roles (name, display_name, display_name_en, description, builtin, created_at, updated_at) values
    ('player', '玩家', 'Player', '', 1, ${now}, ${now}),
    ('admin', '管理员', 'Administrator', '', 1, ${now}, ${now})`.execute(db);
  // Roles are a JSON array of names on each user row: each dialect unnests it its own way.
  const held = postgres
    ? sql`select distinct r.role as name from users cross join lateral jsonb_array_elements_text(users.roles::jsonb) as r(role)`
    : sql`select distinct j.value as name from users, json_each(users.roles) as j`;
  await sql`insert into roles (name, display_name, display_name_en, description, builtin, created_at, updated_at)
    select h.name, h.name, h.name, '', 0, ${now}, ${now} from (${held}) as h
    where h.name not in ('player', 'admin')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('roles').ifExists().execute();
}
