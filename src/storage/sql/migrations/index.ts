import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-initial.js';

/** Migrations are listed here in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '001-initial': m001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
