import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Dialect, Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from '../../src/app/migrations.js';
import { CurrentSchemaPostgresDialect } from '../../src/platform/sql/pg-dialect.js';
import { freshPostgresSchema, isPostgresUrl } from './db.js';

/**
 * A database of the test's kind (TEST_DATABASE_URL's PostgreSQL in a fresh schema, or a
 * SQLite file) migrated up to `name` only, as a release before the migrations after it left
 * it: `db` writes rows the old way, then the test opens `url` with the service. The dialect is
 * the service's own, whose introspection stays in its schema while other schemas of the
 * database come and go.
 */
export async function databaseAt(name: string): Promise<{
  db: Kysely<any>;
  url: string;
  dispose: () => Promise<void>;
}> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  let url: string;
  let dispose: () => Promise<void>;
  let dialect: Dialect;
  let migrationTableSchema: string | undefined;
  if (isPostgresUrl(pgUrl)) {
    const fresh = await freshPostgresSchema(pgUrl);
    const { default: pg } = await import('pg');
    dialect = new CurrentSchemaPostgresDialect({
      pool: new pg.Pool({
        connectionString: pgUrl,
        options: `-c search_path=${fresh.schema}`,
        max: 1,
      }),
    });
    url = fresh.url;
    dispose = fresh.dispose;
    migrationTableSchema = fresh.schema;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'ac-mig-'));
    const { default: Sqlite } = await import('better-sqlite3');
    dialect = new SqliteDialect({ database: new Sqlite(join(dir, 'm.db')) });
    url = `sqlite:${join(dir, 'm.db')}`;
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  }
  const db = new Kysely<any>({ dialect });
  const { error } = await new Migrator({
    db,
    provider: migrationProvider,
    ...(migrationTableSchema && { migrationTableSchema }),
  }).migrateTo(name);
  if (error) {
    await db.destroy();
    await dispose();
    throw error;
  }
  return { db, url, dispose };
}
