import type { Kysely, Migration, MigrationProvider } from 'kysely';

/**
 * A part's share of a migration: what it changes in the tables it owns. Released migrations
 * touched the tables of several features at once; each keeps its share in its own folder, and
 * the shares of one name run together as that one migration.
 */
export interface MigrationPart {
  /** The name databases record; it never changes once released. */
  name: string;
  up(db: Kysely<unknown>): Promise<void>;
  down?(db: Kysely<unknown>): Promise<void>;
}

/**
 * The migrations by the names databases record, run in the order of `names`. The parts of one
 * name run in the order given (and are undone in reverse) as one migration, so a database that
 * recorded the name runs none of them again. A part under an unlisted name, or a name without
 * parts, is a mistake of composition and fails at once.
 */
export function composeMigrations(
  names: readonly string[],
  parts: readonly MigrationPart[],
): MigrationProvider {
  const unknown = parts.find((p) => !names.includes(p.name));
  if (unknown) throw new Error(`migration ${unknown.name} is not listed`);
  const migrations: Record<string, Migration> = {};
  for (const name of names) {
    const shares = parts.filter((p) => p.name === name);
    if (shares.length === 0) throw new Error(`migration ${name} has no part`);
    migrations[name] = {
      async up(db) {
        for (const share of shares) await share.up(db);
      },
      async down(db) {
        for (const share of [...shares].reverse()) await share.down?.(db);
      },
    };
  }
  return { getMigrations: async () => migrations };
}
