import {
  PostgresAdapter,
  sql,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

/**
 * Adds an auto-increment primary key `id` to a table being created, in the dialect's own
 * words: `bigserial` on PostgreSQL, `integer … autoincrement` on SQLite.
 */
export function idColumn(db: Kysely<unknown>) {
  const id =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? 'bigserial'
      : 'integer';
  const autoIncrement = id === 'integer';
  return <TB extends string, C extends string>(t: CreateTableBuilder<TB, C>) =>
    t.addColumn('id', sql.raw(id), (c) =>
      autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
    );
}
