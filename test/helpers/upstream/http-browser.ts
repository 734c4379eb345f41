import { createTestApp, type TestApp } from '../app.js';
import { freePort } from '../net.js';

/** Cookies per origin, as a browser keeps them (names and values only: the tests need no more). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  header(url: URL): string {
    return [...(this.jars.get(url.origin) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }

  store(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const jar = this.jars.get(url.origin) ?? new Map<string, string>();
      const maxAge = /max-age=(\d+)/i.exec(line)?.[1];
      if (maxAge === '0') jar.delete(pair.slice(0, eq).trim());
      else jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      this.jars.set(url.origin, jar);
    }
  }

  /** Copies the cookies of one origin to another: two addresses of one site (instances behind a balancer). */
  copy(from: string, to: string): void {
    if (from === to) return;
    this.jars.set(
      to,
      new Map([...(this.jars.get(to) ?? []), ...(this.jars.get(from) ?? [])]),
    );
  }

  get(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }
}

export interface Visit {
  url: URL;
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Follows redirects from `start` as a browser would, across hosts, with the jar's cookies,
 * and stops at the first answer that is not a redirect, or before visiting an address for
 * which `stopBefore` is true (answered with status 0).
 */
export async function browse(
  start: string | URL,
  jar: CookieJar,
  stopBefore?: (url: URL) => boolean,
): Promise<Visit> {
  let url = new URL(start);
  for (let hops = 0; hops < 20; hops++) {
    if (stopBefore?.(url))
      return { url, status: 0, headers: new Headers(), text: '' };
    const cookie = jar.header(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { accept: 'text/html', ...(cookie && { cookie }) },
    });
    jar.store(url, res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      url = new URL(location, url);
      continue;
    }
    return {
      url,
      status: res.status,
      headers: res.headers,
      text: await res.text(),
    };
  }
  throw new Error(`too many redirects from ${String(start)}`);
}

/** The `data-*` attributes of a page's <body>, unescaped. */
export function pageData(html: string): Record<string, string> {
  const body = /<body([^>]*)>/.exec(html)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/ data-([a-z-]+)="([^"]*)"/g)) {
    out[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return out;
}

export interface ListeningCenter extends TestApp {
  baseUrl: string;
}

/** The whole service on a loopback port, BASE_URL its real address (providers redirect back to it). */
export async function listeningCenter(
  env: Record<string, string> = {},
  opts: Parameters<typeof createTestApp>[1] = {},
): Promise<ListeningCenter> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp(
    { PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, ...env },
    opts,
  );
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

/** A JSON POST to the center from the browser of `jar` (its cookies go along), with an optional Bearer token. */
export async function postJson(
  center: { baseUrl: string },
  path: string,
  body: unknown,
  jar: CookieJar,
  token?: string,
): Promise<{ status: number; body: any }> {
  const url = new URL(path, center.baseUrl);
  const cookie = jar.header(url);
  const res = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(cookie && { cookie }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
  });
  jar.store(url, res);
  return { status: res.status, body: await res.json() };
}
