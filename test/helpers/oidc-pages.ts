import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

/** The browser session cookie the pages set after a sign-in. */
export const sessionCookie = (token: string) => ({
  cookie: `ac_session=${token}`,
});

/** GET /oauth/authorize with these parameters, as the browser holding `token` (if any). */
export function authorizeGet(
  t: TestApp,
  params: Record<string, string>,
  token?: string,
): Promise<LightMyRequestResponse> {
  const q = new URLSearchParams(params).toString();
  return t.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${q}`,
    headers: token ? sessionCookie(token) : {},
  });
}

/** The Location of a 302 as a URL (relative ones against a dummy origin). */
export function location(res: LightMyRequestResponse): URL {
  if (res.statusCode !== 302)
    throw new Error(
      `expected a redirect, got ${res.statusCode}: ${res.body.slice(0, 300)}`,
    );
  return new URL(String(res.headers.location), 'http://center.invalid');
}

/** The ticket a redirect to the consent page or the sign-in page carries. */
export function ticketOf(url: URL): string {
  const direct = url.searchParams.get('ticket');
  if (direct) return direct;
  const next = new URL(
    url.searchParams.get('next') ?? '',
    'http://center.invalid',
  );
  const ticket = next.searchParams.get('ticket');
  if (!ticket) throw new Error(`no ticket in ${url}`);
  return ticket;
}

/** POST JSON to a pages helper with the session cookie. */
export function pagesPost(
  t: TestApp,
  url: string,
  payload: unknown,
  token?: string,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: {
      'content-type': 'application/json',
      ...(token ? sessionCookie(token) : {}),
    },
  });
}
