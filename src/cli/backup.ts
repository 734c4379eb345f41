import { chmodSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { UsageError } from './common.js';
import { say } from './messages.js';
import {
  BackupError,
  migrate,
  print,
  refuseNonEmpty,
} from './backup-common.js';
import { postgresBackup, postgresRestore } from './backup-postgres.js';

export { BackupError };

/**
 * `account-center backup FILE` and `account-center restore FILE` (docs/operations.md).
 * SQLite: SQLite's online backup API, page by page, consistent while the service writes.
 * PostgreSQL: pg_dump / pg_restore (custom format), which the command runs and checks, and
 * whose exact command line it prints for a scheduler.
 */

async function openSqlite(path: string, readonly: boolean) {
  const { default: Database } = await import('better-sqlite3');
  return new Database(path, { readonly, fileMustExist: true });
}

/** Integrity and shape of a SQLite copy: the tables of the service, and how many users. */
async function checkSqliteCopy(
  file: string,
): Promise<{ users: number; migrations: string[] }> {
  const db = await openSqlite(file, true).catch((err: Error) => {
    throw new BackupError(`${file}: ${err.message}`);
  });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok')
      throw new BackupError(
        say('backupDamaged', { file, detail: String(integrity) }),
      );
    const tables = new Set(
      (
        db
          .prepare("select name from sqlite_master where type = 'table'")
          .all() as Array<{ name: string }>
      ).map((r) => r.name),
    );
    if (!tables.has('users') || !tables.has('kysely_migration'))
      throw new BackupError(say('notOurDatabase', { file }));
    const users = (
      db.prepare('select count(*) as n from users').get() as { n: number }
    ).n;
    const migrations = (
      db
        .prepare('select name from kysely_migration order by name')
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
    return { users, migrations };
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(
      say('notOurDatabaseBecause', { file, error: (err as Error).message }),
    );
  } finally {
    db.close();
  }
}

async function sqliteBackup(dbPath: string, file: string): Promise<void> {
  const db = await openSqlite(dbPath, true).catch((err: Error) => {
    throw new BackupError(
      say('cannotOpen', { path: dbPath, error: err.message }),
    );
  });
  try {
    await db.backup(file);
  } finally {
    db.close();
  }
  chmodSync(file, 0o600);
  print({
    backup: file,
    database: 'sqlite',
    bytes: statSync(file).size,
    ...(await checkSqliteCopy(file)),
  });
}

async function sqliteRestore(
  dbPath: string,
  databaseUrl: string,
  file: string,
): Promise<void> {
  const found = await checkSqliteCopy(file);
  if (existsSync(dbPath)) await refuseNonEmpty(databaseUrl);
  const source = await openSqlite(file, true);
  try {
    // The backup API writes through a connection of its own, so an existing (empty) file,
    // its WAL included, is replaced consistently.
    await source.backup(dbPath);
  } finally {
    source.close();
  }
  await migrate(databaseUrl);
  print({ restored: file, database: 'sqlite', into: dbPath, ...found });
}

function fileArgument(command: string, args: string[]): string {
  if (args.length !== 1 || args[0]!.startsWith('-'))
    throw new UsageError(say('oneFile', { command }));
  return resolve(args[0]!);
}

/** `backup FILE`: never overwrites; errors are one line and exit code 1. */
export async function backupCommand(args: string[]): Promise<void> {
  const file = fileArgument('backup', args);
  if (existsSync(file)) throw new UsageError(say('backupExists', { file }));
  const { config } = loadConfig();
  await run(() =>
    config.databaseUrl.startsWith('sqlite:')
      ? sqliteBackup(config.databaseUrl.slice('sqlite:'.length), file)
      : postgresBackup(config.databaseUrl, file),
  );
}

/** `restore FILE`: only into an empty database (stop the service first). */
export async function restoreCommand(args: string[]): Promise<void> {
  const file = fileArgument('restore', args);
  if (!existsSync(file)) throw new UsageError(say('noSuchFile', { file }));
  const { config } = loadConfig();
  await run(() =>
    config.databaseUrl.startsWith('sqlite:')
      ? sqliteRestore(
          config.databaseUrl.slice('sqlite:'.length),
          config.databaseUrl,
          file,
        )
      : postgresRestore(config.databaseUrl, file),
  );
}

async function run(task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    process.stderr.write(`account-center: ${err.message}\n`);
    process.exitCode = 1;
  }
}
