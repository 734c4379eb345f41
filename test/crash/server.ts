import { rawRequest } from '../helpers/raw-request.js';
import {
  startServer as startService,
  type Reply,
  type RunningServer,
} from '../helpers/server.js';

export { call, type RunningServer } from '../helpers/server.js';
export const CRASH_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

/** The real service (`account-center serve`) on a SQLite file, answering /healthz. */
export function startServer(
  dbFile: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startService({
    DATABASE_URL: `sqlite:${dbFile}`,
    JWT_SECRET: CRASH_SECRET,
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/**
 * A JSON request over a raw socket: `sent` resolves once the whole request is in the kernel's
 * hands, so a later request on another socket is known to arrive after it.
 */
export function rawPost(
  base: string,
  path: string,
  payload: unknown,
  method = 'POST',
): { sent: Promise<void>; answer: Promise<Reply & { at: number }> } {
  const { sent, answer } = rawRequest(base, {
    method,
    path,
    contentType: 'application/json',
    body: payload === undefined ? '' : JSON.stringify(payload),
  });
  return { sent, answer };
}
