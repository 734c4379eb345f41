import { destination as pinoDestination, pino, type Logger } from 'pino';
import { prettyStream } from './log-pretty.js';

/**
 * Paths that could carry a secret are censored wherever they appear in a log line, so a
 * careless `log.info({ body })` can not leak a password, code or token.
 */
export const REDACT_PATHS = [
  'password',
  'new_password',
  'client_secret',
  'code',
  'code_verifier',
  'device_code',
  'email_code',
  'access_token',
  'token',
  'secret',
  '*.password',
  '*.new_password',
  '*.client_secret',
  '*.code',
  '*.code_verifier',
  '*.device_code',
  '*.email_code',
  '*.access_token',
  '*.token',
  '*.secret',
  '*.*.password',
  '*.*.new_password',
  '*.*.client_secret',
  '*.*.code_verifier',
  '*.*.device_code',
  '*.*.access_token',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.headers.authorization',
];

export type LogFormat = 'json' | 'pretty';

/** Lines are gathered until this many bytes are pending (pino's `minLength`), so one write(2) carries many. */
const BATCH_BYTES = 2048;
/**
 * The most one write(2) carries (`maxWrite`). SonicBoom measures the UTF-8 length of the chunk
 * it appends to again for every line, so a line costs in proportion to this size: its default
 * of 16 KiB would make that measuring most of what logging a request costs.
 */
const MAX_WRITE_BYTES = 4096;
/** How long a line may wait for others to share its write. */
export const LOG_FLUSH_MS = 25;
/** Above this much unwritten output (a reader that stopped reading) new lines are dropped. */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

export type LogDestination = ReturnType<typeof pinoDestination>;

/**
 * pino's own asynchronous destination on a file descriptor, writing in batches: nothing waits
 * for the log, and pino writes what is pending synchronously when the process exits. Lines
 * dropped while the reader was stuck are owned up to once output moves again.
 */
export function logDestination(fd: number): LogDestination {
  const destination = pinoDestination({
    dest: fd,
    sync: false,
    minLength: BATCH_BYTES,
    maxWrite: MAX_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    maxLength: MAX_PENDING_BYTES,
  });
  let dropped = 0;
  destination.on('drop', () => {
    dropped += 1;
  });
  destination.on('drain', () => {
    if (dropped === 0) return;
    const note = `{"level":40,"time":${Date.now()},"pid":${process.pid},"msg":"log lines dropped: output was not being read","dropped":${dropped}}\n`;
    dropped = 0;
    destination.write(note);
  });
  return destination;
}

/** How long an exit waits for the pending log lines before it goes anyway. */
const EXIT_FLUSH_MS = 2000;

/**
 * Exits with `code` once the pending log lines are written, or found unwritable. Exiting at
 * once leaves them to pino's synchronous write at exit, which retries a broken pipe for ever:
 * `account-center serve | head -1` then hung at SIGTERM, head being gone. Written
 * asynchronously first (pino's public flush), a broken pipe ends in an error, pino stops
 * writing to that output, and the callback exits.
 */
export function exitAfterLogFlush(
  logger: Pick<Logger, 'flush'>,
  code: number,
): void {
  process.exitCode = code;
  const exit = () => process.exit(code);
  setTimeout(exit, EXIT_FLUSH_MS);
  try {
    logger.flush(exit);
  } catch {
    exit();
  }
}

let stdout: LogDestination | undefined;

/**
 * JSON lines by default; `pretty` (LOG_FORMAT=pretty) is for a person at a terminal.
 * Without a destination the lines go to stdout, through the process's one logDestination(1).
 */
export function createLogger(
  level: string,
  destination?: NodeJS.WritableStream,
  format: LogFormat = 'json',
): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (format === 'pretty')
    return pino(options, prettyStream(destination ?? process.stdout));
  if (destination) return pino(options, destination);
  stdout ??= logDestination(1);
  return pino(options, stdout);
}
