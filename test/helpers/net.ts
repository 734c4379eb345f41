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
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
