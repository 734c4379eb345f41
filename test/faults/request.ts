// One request of the fault suite (JSON, or a form for the OAuth endpoints), with its time,
// `Retry-After` and `Location`.
import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  body: any;
  retryAfter: string | undefined;
  /** Where a redirect points (the OAuth authorization endpoint answers with one). */
  location: string | undefined;
  /** When the request was sent, and how long its answer took. */
  at: number;
  ms: number;
}

export interface SendOptions {
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  timeoutMs?: number;
  /** Further headers: a session cookie, client credentials. */
  headers?: Record<string, string>;
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
  return sendWith(base, method, path, body, { token, timeoutMs });
}

/** `send` with options; a URLSearchParams body goes as a form, anything else as JSON. */
export function sendWith(
  base: string,
  method: string,
  path: string,
  body: unknown,
  opts: SendOptions,
): Promise<Reply> {
  const form = body instanceof URLSearchParams;
  const payload =
    body === undefined ? undefined : form ? String(body) : JSON.stringify(body);
  const at = Date.now();
  return new Promise((resolve) => {
    const done = (
      status: number,
      text = '',
      headers: Record<string, unknown> = {},
    ) => {
      let parsed: unknown = text;
      try {
        parsed = text === '' ? {} : JSON.parse(text);
      } catch {
        /* not JSON */
      }
      resolve({
        status,
        body: parsed,
        retryAfter: headers['retry-after'] as string | undefined,
        location: headers.location as string | undefined,
        at,
        ms: Date.now() - at,
      });
    };
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        agent: false,
        timeout: opts.timeoutMs ?? 20_000,
        headers: {
          ...(payload !== undefined && {
            'content-type': form
              ? 'application/x-www-form-urlencoded'
              : 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
          ...(opts.token && { authorization: `Bearer ${opts.token}` }),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('error', () => done(0));
        res.on('end', () => done(res.statusCode ?? 0, text, res.headers));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0));
    req.end(payload);
  });
}
