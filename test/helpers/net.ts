import { createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago: for servers whose address must be known before
 * they start. Each Vitest worker takes its ports from its own block below the kernel's
 * ephemeral range, so a port handed out here is never the one another file's `listen(0)` or
 * another worker's `freePort` picks in the moment before the server binds it.
 */
export async function freePort(): Promise<number> {
  const block = Number(process.env.VITEST_POOL_ID ?? process.pid) % PORT_BLOCKS;
  for (let tries = 0; tries < PORTS_PER_BLOCK; tries++) {
    const port =
      FIRST_PORT + block * PORTS_PER_BLOCK + (nextInBlock++ % PORTS_PER_BLOCK);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in block ${block}`);
}

const FIRST_PORT = 20000;
const PORT_BLOCKS = 48;
const PORTS_PER_BLOCK = 250;
let nextInBlock = Math.floor(Math.random() * PORTS_PER_BLOCK);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
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
export async function fetchJson(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<HttpReply> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply(res);
}

async function reply(res: Response): Promise<HttpReply> {
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

/** An `Authorization: Basic` value for client credentials, each part form-url-encoded first as OAuth asks. */
export function basicAuth(id: string, secret: string): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

/** POST a form over fetch, as relying parties call the token endpoints; `basic` sends client credentials. */
export async function fetchForm(
  base: string,
  path: string,
  fields: Record<string, string>,
  basic?: [string, string],
): Promise<HttpReply> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: basic ? { authorization: basicAuth(...basic) } : {},
  });
  return reply(res);
}
