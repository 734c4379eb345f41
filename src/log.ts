import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination as never);
}
