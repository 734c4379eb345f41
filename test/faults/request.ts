// One JSON request of the fault suite, with its time and `Retry-After`.
import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  body: any;
  retryAfter: string | undefined;
  /** When the request was sent, and how long its answer took. */
  at: number;
  ms: number;
}

/** One JSON request on a fresh connection; a refused, dropped or timed-out one is status 0. */
export function send(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  timeoutMs = 20_000,
): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const at = Date.now();
  return new Promise((resolve) => {
    const done = (status: number, text = '', retryAfter?: string) => {
      let parsed: unknown = text;
      try {
        parsed = text === '' ? {} : JSON.parse(text);
      } catch {
        /* not JSON */
      }
      resolve({ status, body: parsed, retryAfter, at, ms: Date.now() - at });
    };
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        agent: false,
        timeout: timeoutMs,
        headers: {
          ...(payload !== undefined && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('error', () => done(0));
        res.on('end', () =>
          done(
            res.statusCode ?? 0,
            text,
            res.headers['retry-after'] as string | undefined,
          ),
        );
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0));
    req.end(payload);
  });
}
