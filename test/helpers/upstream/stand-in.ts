import { createHash, randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { freePort } from '../net.js';

/**
 * The common part of the local stand-ins for GitHub, Discord, Steam, QQ and WeChat: an HTTP
 * server on loopback, the person who is signed in there (and approves, or declines), and the
 * one-time codes and tokens it hands out. Each stand-in answers its endpoints as the
 * provider's documentation says (linked in each file).
 */
export interface Person {
  id: string;
  [key: string]: unknown;
}

export interface Request {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** The body as form fields (urlencoded), when there is one. */
  form: URLSearchParams;
}

export type Handler = (
  req: Request,
  res: ServerResponse,
) => void | Promise<void>;

export const random = (n = 24) => randomBytes(n).toString('base64url');
export const s256 = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json; charset=utf-8',
): void {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

export function text(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

/** `base` with query parameters added (the callback of an authorization answer). */
export function withQuery(
  base: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params))
    if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

export function bearerOf(req: Request): string | undefined {
  return /^(?:bearer|token|oauth) +(.+)$/i.exec(
    req.headers.authorization ?? '',
  )?.[1];
}

export class StandIn {
  base = '';
  /** The person signed in at the provider, who approves the next authorization (or declines it). */
  person: Person = { id: '1' };
  declines = false;
  /** Codes handed to the browser: code → what it was issued for. */
  readonly codes = new Map<
    string,
    {
      person: Person;
      clientId: string;
      redirectUri: string;
      scope: string;
      challenge?: string;
    }
  >();
  readonly tokens = new Map<string, { person: Person; scope: string }>();
  /** Every request, `METHOD path`, for tests that check what the center asked. */
  readonly log: string[] = [];
  private server: Server | undefined;

  constructor(private readonly routes: Record<string, Handler>) {}

  async start(): Promise<this> {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    this.server = createServer(
      (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res),
    );
    await new Promise<void>((resolve) =>
      this.server!.listen(port, '127.0.0.1', resolve),
    );
    return this;
  }

  signInAs(person: Person): void {
    this.person = person;
    this.declines = false;
  }

  /** The person approves: a code for the client, redirect URI, scope and PKCE challenge asked for. */
  issueCode(
    clientId: string,
    redirectUri: string,
    scope: string,
    challenge?: string,
  ): string {
    const code = random();
    this.codes.set(code, {
      person: this.person,
      clientId,
      redirectUri,
      scope,
      ...(challenge && { challenge }),
    });
    return code;
  }

  /** A code is good once. */
  takeCode(code: string | null) {
    if (!code) return undefined;
    const issued = this.codes.get(code);
    this.codes.delete(code);
    return issued;
  }

  issueToken(person: Person, scope: string): string {
    const token = random(30);
    this.tokens.set(token, { person, scope });
    return token;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A route with `{name}` segments (`GET /api/users/@me/guilds/{guild}/member`). */
  private patternRoute(key: string): Handler | undefined {
    const parts = key.split('/');
    for (const [pattern, handler] of Object.entries(this.routes)) {
      const want = pattern.split('/');
      if (
        want.length === parts.length &&
        want.every((w, i) => /^\{\w+\}$/.test(w) || w === parts[i])
      )
        return handler;
    }
    return undefined;
  }

  private async handle(
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of raw) chunks.push(c as Buffer);
    const url = new URL(raw.url ?? '/', this.base);
    const req: Request = {
      method: raw.method ?? 'GET',
      url,
      headers: raw.headers,
      form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
    };
    this.log.push(`${req.method} ${url.pathname}`);
    const route =
      this.routes[`${req.method} ${url.pathname}`] ??
      this.patternRoute(`${req.method} ${url.pathname}`);
    try {
      if (route) await route(req, res);
      else json(res, 404, { message: 'Not Found' });
    } catch (err) {
      json(res, 500, { message: String(err) });
    }
  }
}
