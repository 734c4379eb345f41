import { spawn } from 'node:child_process';
import { chmodSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePostgresUrl } from '../app/sql-storage.js';
import { say } from './messages.js';
import {
  BackupError,
  migrate,
  print,
  refuseNonEmpty,
  usersIn,
} from './backup-common.js';

// PostgreSQL: pg_dump and pg_restore (custom format), run and checked, the command line printed.

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

export async function postgresBackup(
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

export async function postgresRestore(
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
