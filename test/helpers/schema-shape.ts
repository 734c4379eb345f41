import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import { freshPostgresSchema, isPostgresUrl } from './db.js';

/**
 * What a freshly migrated database holds, as the catalogue reports it: the applied migration
 * names, every table and index with its definition. PostgreSQL's own names of NOT NULL checks
 * carry object ids and its index definitions the schema, so those are left out or replaced.
 */
export interface SchemaShape {
  migrations: string[];
  objects: unknown[];
}

export async function migratedSchemaShape(): Promise<SchemaShape> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (isPostgresUrl(pgUrl)) {
    const fresh = await freshPostgresSchema(pgUrl);
    try {
      const storage = await createSqlStorage(fresh.url, { pgPoolMax: 1 });
      await storage.migrate();
      await storage.close();
      return await postgresShape(pgUrl, fresh.schema);
    } finally {
      await fresh.dispose();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'ac-shape-'));
  try {
    const file = join(dir, 'shape.db');
    const storage = await createSqlStorage(`sqlite:${file}`);
    await storage.migrate();
    await storage.close();
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file, { readonly: true });
    try {
      const names = db
        .prepare('select name from kysely_migration order by name')
        .all() as { name: string }[];
      const objects = db
        .prepare(
          'select type, name, tbl_name, sql from sqlite_master order by type, name',
        )
        .all();
      return { migrations: names.map((r) => r.name), objects };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresShape(
  url: string,
  schema: string,
): Promise<SchemaShape> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: url,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    const q = async (text: string) =>
      (await client.query(text, [schema])).rows as Record<string, unknown>[];
    const names = await q(
      'select name from kysely_migration where $1::text is not null order by name',
    );
    const columns = await q(
      `select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
       from information_schema.columns where table_schema = $1
       order by table_name, ordinal_position`,
    );
    const constraints = await q(
      `select table_name, constraint_name, constraint_type
       from information_schema.table_constraints
       where table_schema = $1 and constraint_type <> 'CHECK'
       order by table_name, constraint_name`,
    );
    const indexes = await q(
      `select tablename, indexname, indexdef from pg_indexes
       where schemaname = $1 order by tablename, indexname`,
    );
    return {
      migrations: names.map((r) => String(r.name)),
      objects: [
        ...columns.map((c) => ({ column: c })),
        ...constraints.map((c) => ({ constraint: c })),
        ...indexes.map((i) => ({
          index: {
            ...i,
            indexdef: String(i.indexdef).replaceAll(`${schema}.`, ''),
          },
        })),
      ],
    };
  } finally {
    await client.end();
  }
}
