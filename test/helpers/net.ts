import { createServer, type AddressInfo } from 'node:net';

/** A loopback port that was free a moment ago: for servers whose address must be known before they start. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface HttpReply {
  status: number;
  headers: Headers;
  /** The answer parsed as JSON; undefined when it is empty. */
  body: any;
}

/**
 * One request over fetch to a listening server: `body` goes as JSON, `token` as a Bearer
 * token, `headers` on top. A connection that fails rejects, as fetch does (compare `call` in
 * server.ts, which answers status 0 instead).
 */
export async function fetchJson(base: string, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply(res);
}

async function reply(res: Response): Promise<HttpReply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** An `Authorization: Basic` value for client credentials, each part form-url-encoded first as OAuth asks. */
export function basicAuth(id: string, secret: string): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

/** POST a form over fetch, as relying parties call the token endpoints; `basic` sends client credentials. */
export async function fetchForm(base: string, path: string, fields: Record<string, string>, basic?: [string, string]): Promise<HttpReply> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST', body: new URLSearchParams(fields),
    headers: basic ? { authorization: basicAuth(...basic) } : {},
  });
  return reply(res);
}
