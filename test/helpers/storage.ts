import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import type { Storage } from '../../src/app/storage.js';
import { freshPostgresSchema, isPostgresUrl } from './db.js';

export interface TestStorage {
  storage: Storage;
  /** Closes the storage and removes its database (the schema, or the SQLite file's folder). */
  close(): Promise<void>;
}

/**
 * Repositories on the database of this test project, migrated: a fresh PostgreSQL schema when
 * TEST_DATABASE_URL names one, otherwise a SQLite file of its own (a file, not memory, so the
 * writes go through WAL as in service).
 */
export async function openTestStorage(
  name: string,
  pgPoolMax = 8,
): Promise<TestStorage> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  let storage: Storage;
  let dispose: () => Promise<void>;
  if (isPostgresUrl(pgUrl)) {
    const fresh = await freshPostgresSchema(pgUrl);
    storage = await createSqlStorage(fresh.url, { pgPoolMax });
    dispose = fresh.dispose;
  } else {
    const dir = mkdtempSync(join(tmpdir(), `ac-${name}-`));
    storage = await createSqlStorage(`sqlite:${join(dir, 'test.db')}`);
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  }
  await storage.migrate();
  return {
    storage,
    async close() {
      await storage.close();
      await dispose();
    },
  };
}
