import { createServer } from 'node:net';
import { ConfigError } from '../config/index.js';

/**
 * Turns what can go wrong while `serve` starts into one line an operator can act on: what
 * failed, which setting is involved and what to do. Anything unrecognised still gets one line
 * (its message); the stack is printed only at LOG_LEVEL=debug or trace.
 */

interface ErrorLike {
  code?: string;
  errno?: number;
  syscall?: string;
  address?: string;
  port?: number;
  path?: string;
  message?: string;
  errors?: ErrorLike[];
}

/** The part of DATABASE_URL that is safe to print: no password, no query. */
export function databaseTarget(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:'))
    return databaseUrl.slice('sqlite:'.length);
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

const FILE_CODES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'no space left on the device',
  SQLITE_CANTOPEN: 'the file can not be opened or created',
  SQLITE_READONLY: 'the file is read-only',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_CORRUPT: 'the file is damaged',
  SQLITE_FULL: 'no space left on the device',
};

/** Node reports a failed dual-stack connect as an AggregateError whose members carry the code. */
function codeOf(err: ErrorLike): string | undefined {
  return err.code ?? err.errors?.find((e) => e.code)?.code;
}

export function describeStartupError(
  err: unknown,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (err instanceof ConfigError) return err.message;
  const e = (err ?? {}) as ErrorLike;
  const code = codeOf(e);
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/account-center.db';
  const postgres = !databaseUrl.startsWith('sqlite:');

  if (code === 'EADDRINUSE') {
    return `port ${e.port ?? env.PORT ?? 3000} on ${e.address ?? env.HOST ?? '127.0.0.1'} is already in use (PORT, HOST): stop the other process or choose another PORT`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `address ${e.address ?? env.HOST} is not on this machine (HOST): use 127.0.0.1, 0.0.0.0 or one of the machine's addresses`;
  }
  if ((code === 'EACCES' || code === 'EPERM') && e.syscall === 'listen') {
    return `port ${e.port ?? env.PORT} needs privileges (PORT): use a port above 1023 behind a reverse proxy`;
  }
  if (
    code === 'ERR_INVALID_URL' ||
    /DATABASE_URL|schema name/i.test(e.message ?? '')
  ) {
    return `DATABASE_URL is malformed (${e.message}): use sqlite:PATH or postgres://user:password@host:5432/database`;
  }
  if (postgres && code && NETWORK_CODES[code]) {
    return `PostgreSQL at ${databaseTarget(databaseUrl)} is unreachable: ${NETWORK_CODES[code]} (DATABASE_URL): check that the server runs and that host and port are right`;
  }
  if (postgres && /^Connection terminated/.test(e.message ?? '')) {
    const why = /timeout/.test(e.message ?? '')
      ? 'no answer within 10 s'
      : 'the connection was closed';
    return `PostgreSQL at ${databaseTarget(databaseUrl)} is unreachable: ${why} (DATABASE_URL): check host and port, that a PostgreSQL server answers there, and sslmode`;
  }
  if (postgres && code === '28P01') {
    return `PostgreSQL at ${databaseTarget(databaseUrl)} refused the password (DATABASE_URL): check the user name and password`;
  }
  if (postgres && code === '3D000') {
    return `PostgreSQL at ${databaseTarget(databaseUrl)}: ${e.message} (DATABASE_URL): create it with \`createdb\` or fix the name`;
  }
  if (postgres && code && /^(28|42501)/.test(code)) {
    return `PostgreSQL at ${databaseTarget(databaseUrl)} refused access: ${e.message} (DATABASE_URL): grant the user access or use another`;
  }
  if (!postgres && code && FILE_CODES[code]) {
    const todo =
      code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT'
        ? 'restore it from a backup (account-center restore) or point DATABASE_URL elsewhere'
        : 'make its folder writable by the service user or point DATABASE_URL elsewhere';
    return `the SQLite database ${databaseTarget(databaseUrl)} can not be used: ${FILE_CODES[code]} (DATABASE_URL): ${todo}`;
  }
  if (code && FILE_CODES[code] && e.path) {
    return `${e.path}: ${FILE_CODES[code]} (DATA_DIR): make the data folder writable by the service user or set DATA_DIR`;
  }
  return `failed to start: ${e.message ?? String(err)}`;
}

/**
 * Fails like a listen would when the port is taken. The primary of `serve --workers N` checks
 * this before forking, so a taken port is one line and exit 1, not N workers crash-looping.
 */
export function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () =>
      probe.close(() => resolve()),
    );
  });
}

/** Prints the one line (plus the stack when debugging) to stderr and exits with 1. */
export function exitOnStartupFailure(
  err: unknown,
  env: NodeJS.ProcessEnv = process.env,
): never {
  process.stderr.write(
    `account-center: ${describeStartupError(err, env).replace(/\s*\n\s*/g, ' ')}\n`,
  );
  if (
    /^(debug|trace)$/i.test(env.LOG_LEVEL ?? '') &&
    err instanceof Error &&
    err.stack
  )
    process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}
