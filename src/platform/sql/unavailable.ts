/**
 * Whether an error means the database cannot serve right now — PostgreSQL stopped,
 * restarting or unreachable, or SQLite's disk full — rather than a fault of the request or
 * of the service. Such a request is answered 503 with `Retry-After`: the client may try
 * again, and the service recovers by itself once the database is back.
 */
export function databaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_TEXT.test(message))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again (`Retry-After`). */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * PostgreSQL's connection exceptions (class 08), operator intervention (57P01–57P03: shut
 * down, crashed, starting), too many connections (53300) and out of disk (53100); the socket
 * errors of an unreachable server; SQLite's full disk or database file size limit.
 */
const UNAVAILABLE_CODE =
  /^(08\w{3}|57P0[1-3]|53[13]00|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|SQLITE_FULL)$/;

/** node-postgres reports a lost or timed-out connection by message only. */
const UNAVAILABLE_TEXT =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;
