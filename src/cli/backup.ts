import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { parsePostgresUrl, createSqlStorage } from '../app/sql-storage.js';
import { UsageError } from './common.js';
import { say } from './messages.js';

/**
 * `account-center backup FILE` and `account-center restore FILE` (docs/operations.md).
 * SQLite: SQLite's online backup API, page by page, consistent while the service writes.
 * PostgreSQL: pg_dump / pg_restore (custom format), which the command runs and checks, and
 * whose exact command line it prints for a scheduler.
 */

export class BackupError extends Error {}

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

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

/** The users in the target database, or 0 when it has no tables yet. */
async function usersIn(databaseUrl: string): Promise<number> {
  const storage = await createSqlStorage(databaseUrl, { pgPoolMax: 1 });
  try {
    return await storage.users.count();
  } catch (err) {
    const message = (err as Error).message;
    if (
      (err as { code?: string }).code === '42P01' ||
      /no such table/.test(message)
    )
      return 0;
    throw err;
  } finally {
    await storage.close();
  }
}

async function refuseNonEmpty(databaseUrl: string): Promise<void> {
  const users = await usersIn(databaseUrl);
  if (users > 0) throw new BackupError(say('restoreNotEmpty', { users }));
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

async function migrate(databaseUrl: string): Promise<void> {
  const storage = await createSqlStorage(databaseUrl, { pgPoolMax: 1 });
  try {
    await storage.migrate();
  } finally {
    await storage.close();
  }
}

interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}
function runTool(command: string, args: string[]): Promise<ToolRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'ENOENT'
          ? new BackupError(say('toolMissing', { tool: command }))
          : err,
      );
    });
    child.once('close', (code) =>
      resolvePromise({ code: code ?? 1, stdout, stderr }),
    );
  });
}

/** The connection string for libpq tools, and the schema the service uses. */
function pgTarget(databaseUrl: string): {
  connection: string;
  schema: string;
  printable: string;
} {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const printable = new URL(connectionString);
  if (printable.password) printable.password = '***';
  return {
    connection: connectionString,
    schema: schema ?? 'public',
    printable: printable.toString(),
  };
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

async function postgresBackup(
  databaseUrl: string,
  file: string,
): Promise<void> {
  const { connection, schema, printable } = pgTarget(databaseUrl);
  const args = [
    '--format=custom',
    '--no-owner',
    `--schema=${schema}`,
    `--file=${file}`,
  ];
  const dump = await runTool('pg_dump', [...args, connection]);
  if (dump.code !== 0)
    throw new BackupError(
      say('toolFailed', { tool: 'pg_dump', error: firstLine(dump.stderr) }),
    );
  chmodSync(file, 0o600);
  const list = await runTool('pg_restore', ['--list', file]);
  if (list.code !== 0 || !/ TABLE \S+ users /.test(list.stdout))
    throw new BackupError(
      say('dumpUnreadable', { file, error: firstLine(list.stderr) }),
    );
  print({
    backup: file,
    database: 'postgres',
    bytes: statSync(file).size,
    schema,
    // The same command for a scheduler; give the password through PGPASSWORD or ~/.pgpass.
    command: `pg_dump ${args.map((a) => (a.startsWith('--file=') ? '--file=BACKUP_FILE' : a)).join(' ')} '${printable}'`,
  });
}

async function postgresRestore(
  databaseUrl: string,
  file: string,
): Promise<void> {
  const { connection, schema } = pgTarget(databaseUrl);
  const list = await runTool('pg_restore', ['--list', file]);
  if (list.code !== 0 || !/ TABLE \S+ users /.test(list.stdout))
    throw new BackupError(
      say('notOurDump', {
        file,
        error: firstLine(list.stderr) || say('noUsersTable'),
      }),
    );
  await refuseNonEmpty(databaseUrl);
  // The schema exists already (created on connect); restore its contents, not the schema itself.
  const entries = list.stdout
    .split('\n')
    .filter((l) => !/^\s*\d+;.* SCHEMA - /.test(l))
    .join('\n');
  const listFile = resolve(`${file}.restore-list`);
  writeFileSync(listFile, entries);
  try {
    const restore = await runTool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--clean',
      '--if-exists',
      `--use-list=${listFile}`,
      `--dbname=${connection}`,
      file,
    ]);
    if (restore.code !== 0)
      throw new BackupError(
        say('toolFailed', {
          tool: 'pg_restore',
          error: firstLine(restore.stderr),
        }),
      );
  } finally {
    rmSync(listFile, { force: true });
  }
  await migrate(databaseUrl);
  print({
    restored: file,
    database: 'postgres',
    schema,
    users: await usersIn(databaseUrl),
  });
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
