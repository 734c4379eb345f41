import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse';
import { csvLine, csvUnescape } from '../platform/csv/csv.js';
import type { ImportedUser } from '../features/accounts/repository.js';
import {
  HashTooCostly,
  parseRecord,
  type RowResult,
  type UserRecord,
} from '../features/admin/user-transfer.js';
import { UsageError, withServices } from './common.js';
import { cliMessage } from './messages.js';
import { Progress } from './progress.js';
import { say } from './messages.js';

/** `users export [--format jsonl|csv] [--output FILE]` and `users import FILE [--format jsonl|csv]`. */

const CSV_COLUMNS: Array<keyof UserRecord> = [
  'username',
  'email',
  'display_name',
  'roles',
  'email_verified',
  'banned',
  'password_hash',
  'created_at',
];
const BATCH = 1000;

function format(value: string | undefined, file?: string): 'jsonl' | 'csv' {
  const f = value ?? (file && /\.csv$/i.test(file) ? 'csv' : 'jsonl');
  if (f !== 'jsonl' && f !== 'csv') throw new UsageError(say('transferFormat'));
  return f;
}

async function exportUsers(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
    },
  });
  const fmt = format(values.format, values.output);
  // The file holds password hashes: readable by its owner only, and never overwritten.
  const out = values.output
    ? createWriteStream(values.output, { flags: 'wx', mode: 0o600 })
    : process.stdout;
  if (values.output) await once(out, 'open');
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let n = 0;
  await withServices(async (s) => {
    if (fmt === 'csv') await write(`${csvLine(CSV_COLUMNS)}\n`);
    for await (const r of s.transfer.exportAll()) {
      await write(
        fmt === 'csv'
          ? `${csvLine(
              CSV_COLUMNS.map((c) =>
                c === 'roles' ? r.roles.join(',') : r[c],
              ),
            )}\n`
          : `${JSON.stringify(r)}\n`,
      );
      n += 1;
    }
    // The file holds every password hash: who took one is worth knowing.
    await s.audit.record('users.export', {
      actor: 'cli',
      target: values.output ?? 'stdout',
      detail: { users: n, format: fmt },
    });
  });
  if (values.output) {
    out.end();
    await once(out, 'finish');
  }
  process.stderr.write(`${say('exported', { n })}\n`);
}

type Row =
  | { line: number; record: Record<string, unknown> }
  | { line: number; error: string };

async function* jsonlRows(input: NodeJS.ReadableStream): AsyncGenerator<Row> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      // A byte-order mark, as some Windows tools write, is not part of the first object.
      const record = JSON.parse(
        line === 1 ? text.replace(/^\uFEFF/, '') : text,
      ) as unknown;
      if (
        typeof record !== 'object' ||
        record === null ||
        Array.isArray(record)
      )
        yield { line, error: 'not a JSON object' };
      else yield { line, record: record as Record<string, unknown> };
    } catch {
      yield { line, error: 'not valid JSON' };
    }
  }
}

async function* csvRows(input: NodeJS.ReadableStream): AsyncGenerator<Row> {
  const skipped: Row[] = [];
  const parser = input.pipe(
    parseCsv({
      columns: true,
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
    }),
  );
  parser.on('skip', (err: { lines?: number; message: string }) =>
    skipped.push({ line: err.lines ?? 0, error: `CSV: ${err.message}` }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, unknown>;
    info: { lines: number };
  }>) {
    yield* skipped.splice(0);
    // A cell the export defused against spreadsheet formulas (`'-x`) is read as written (`-x`).
    for (const [key, value] of Object.entries(record))
      if (typeof value === 'string') record[key] = csvUnescape(value);
    yield { line: info.lines, record };
  }
  yield* skipped.splice(0);
}

/**
 * The rows whose password hash asks for more than the cost limits, found by a first reading
 * of the whole file (parameters only, nothing is hashed): any one of them refuses the file,
 * so that nothing of it is imported and the operator fixes or drops those rows first.
 */
async function costlyRows(
  file: string,
  csv: boolean,
): Promise<Array<{ line: number; reason: string }>> {
  const found: Array<{ line: number; reason: string }> = [];
  for await (const row of csv
    ? csvRows(createReadStream(file))
    : jsonlRows(createReadStream(file))) {
    if ('error' in row) continue;
    try {
      parseRecord(row.record, 0);
    } catch (err) {
      if (err instanceof HashTooCostly)
        found.push({ line: row.line, reason: err.message });
    }
  }
  return found;
}

async function importUsers(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string' }, 'batch-size': { type: 'string' } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1)
    throw new UsageError(say('importFileRequired'));
  const batchSize =
    values['batch-size'] === undefined ? BATCH : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 2000)
    throw new UsageError(say('batchSize'));
  let size: number;
  try {
    size = statSync(file).size;
  } catch (err) {
    throw new UsageError(
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? say('noSuchFile', { file })
        : `${file}: ${(err as Error).message}`,
    );
  }
  // Opened once the database is: a stream read before its consumer is attached loses data.
  let bytesRead = 0;
  const open = () => {
    const input = createReadStream(file);
    input.on('data', (chunk) => {
      bytesRead += chunk.length;
    });
    input.pause();
    return input;
  };
  const csv = format(values.format, file) === 'csv';
  const costly = await costlyRows(file, csv);
  if (costly.length > 0) {
    for (const row of costly)
      process.stderr.write(
        `${say('lineRefused', { line: row.line, reason: row.reason })}\n`,
      );
    process.stderr.write(`${say('nothingImported', { n: costly.length })}\n`);
    process.exitCode = 1;
    return;
  }
  const progress = new Progress(process.stderr, say('progressImport'), size);
  const total: RowResult = { imported: 0, present: 0, rejected: [] };
  const started = Date.now();
  let seen = 0;
  const report = (line: number, reason: string) => {
    progress.finish();
    process.stderr.write(`${say('lineSkipped', { line, reason })}\n`);
  };

  await withServices(async (s) => {
    let batch: Array<{ line: number; user: ImportedUser }> = [];
    const flush = async () => {
      const r = await s.transfer.importBatch(batch);
      total.imported += r.imported;
      total.present += r.present;
      for (const bad of r.rejected) report(bad.line, bad.reason);
      total.rejected.push(...r.rejected);
      batch = [];
      // The reader is at most a buffer or two ahead of the rows handled.
      progress.update(seen, bytesRead);
    };
    for await (const row of csv ? csvRows(open()) : jsonlRows(open())) {
      seen += 1;
      if ('error' in row) {
        report(row.line, row.error);
        total.rejected.push({ line: row.line, reason: row.error });
        continue;
      }
      try {
        batch.push({
          line: row.line,
          user: parseRecord(row.record, Date.now()),
        });
      } catch (err) {
        report(row.line, cliMessage(err));
        total.rejected.push({ line: row.line, reason: cliMessage(err) });
      }
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await s.audit.record('users.import', {
      actor: 'cli',
      target: file,
      detail: {
        imported: total.imported,
        already_present: total.present,
        rejected: total.rejected.length,
      },
    });
  });
  progress.update(seen, size, true);
  progress.finish();
  const seconds = (Date.now() - started) / 1000;
  const summary = {
    imported: total.imported,
    already_present: total.present,
    rejected: total.rejected.length,
    rows: seen,
    seconds,
    rows_per_second: Math.round(seen / Math.max(seconds, 0.001)),
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  // Rows were left out: say so to scripts, after everything else went in.
  if (total.rejected.length > 0) process.exitCode = 1;
}

export async function usersCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'export') await exportUsers(rest);
  else if (sub === 'import') await importUsers(rest);
  else
    throw new UsageError(
      say('unknownCommandOf', { group: 'users', sub: sub ?? '' }),
    );
}
