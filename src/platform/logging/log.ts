import { pino, type Logger } from 'pino';
import { stdoutLines } from './log-destination.js';
import { prettyStream } from './log-pretty.js';

/**
 * Paths that could carry a secret are censored wherever they appear in a log line, so a
 * careless `log.info({ body })` can not leak a password, code or token.
 */
export const REDACT_PATHS = [
  'password', 'new_password', 'client_secret', 'code', 'code_verifier', 'device_code', 'email_code', 'access_token', 'token', 'secret',
  '*.password', '*.new_password', '*.client_secret', '*.code', '*.code_verifier', '*.device_code', '*.email_code', '*.access_token', '*.token', '*.secret',
  '*.*.password', '*.*.new_password', '*.*.client_secret', '*.*.code_verifier', '*.*.device_code', '*.*.access_token',
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.headers.authorization',
];

export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines by default; `pretty` (LOG_FORMAT=pretty) is for a person at a terminal.
 * Without a destination the lines go to stdout asynchronously, in batches (platform/logging/log-destination.ts);
 * what is left is written synchronously when the process exits.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (format === 'pretty') return pino(options, prettyStream(destination ?? process.stdout));
  return pino(options, destination ?? stdoutLines());
}
