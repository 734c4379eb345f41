import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Lists the tables of the connection's current schema only, without their columns: all the
 * migrator asks is whether its own tables exist there.
 *
 * Kysely's own PostgreSQL introspector reads every schema of the database and resolves each
 * table by name (`has_schema_privilege`, `pg_get_serial_sequence`). When another schema is
 * dropped during that query (another tenant of the database, another test run), the name no
 * longer resolves and the query fails with `schema "…" does not exist`, so the service did
 * not start. This query joins the catalogue by oid and resolves nothing by name.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{
      name: string | null;
    }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((r) => (r.name ? [{ name: r.name }] : []));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; kind: string }>`
      select n.nspname as schema, c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.map((r) => ({
      schema: r.schema,
      name: r.name,
      isView: r.kind === 'v',
      columns: [],
    }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** Kysely's PostgreSQL dialect with an introspector that stays in the current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
