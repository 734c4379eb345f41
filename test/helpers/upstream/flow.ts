import type { TestUser } from '../app.js';
import {
  browse,
  CookieJar,
  pageData,
  postJson,
  type ListeningCenter,
} from './http-browser.js';

export { CookieJar } from './http-browser.js';

/** What the page after the provider's answer carries (docs/api.md §14.2). */
export interface CallbackPage {
  status: number;
  url: URL;
  /** `error`, `signin` or `email_exists` (absent when the flow ended in a redirect, e.g. to /account). */
  result?: string;
  ticket?: string;
  message?: string;
  email?: string;
  next?: string;
  provider?: string;
}

export function callbackPage(visit: {
  status: number;
  url: URL;
  text: string;
}): CallbackPage {
  const d = pageData(visit.text);
  return {
    status: visit.status,
    url: visit.url,
    result: d['upstream-result'],
    ticket: d['upstream-ticket'],
    message: d['upstream-message'],
    email: d['upstream-email'],
    next: d['upstream-next'],
    provider: d['upstream-provider'],
  };
}

/** The browser of `jar` clicks 使用 … 登录: through the provider and back to the center's callback page. */
export async function throughProvider(
  center: ListeningCenter,
  providerId: string,
  jar: CookieJar,
  next = '/account',
): Promise<CallbackPage> {
  return callbackPage(
    await browse(
      `${center.baseUrl}/login/${providerId}?next=${encodeURIComponent(next)}`,
      jar,
    ),
  );
}

/** The same, but stopping at the callback address (not visited): to replay it, or visit it from elsewhere. */
export async function callbackAddress(
  center: ListeningCenter,
  providerId: string,
  jar: CookieJar,
): Promise<URL> {
  const stop = await browse(
    `${center.baseUrl}/login/${providerId}`,
    jar,
    (url) => url.pathname === `/login/${providerId}/callback`,
  );
  return stop.url;
}

export async function visitCallback(
  url: URL,
  jar: CookieJar,
): Promise<CallbackPage> {
  return callbackPage(await browse(url, jar));
}

export function finish(
  center: ListeningCenter,
  ticket: string | undefined,
  jar: CookieJar,
  otp?: string,
) {
  return postJson(
    center,
    '/api/v1/auth/upstream/finish',
    { ticket: ticket ?? '', ...(otp !== undefined && { otp }) },
    jar,
  );
}

/** Signs in through the provider and finishes: the token envelope. */
export async function signInThrough(
  center: ListeningCenter,
  providerId: string,
  jar = new CookieJar(),
): Promise<{ status: number; body: any; page: CallbackPage }> {
  const page = await throughProvider(center, providerId, jar);
  if (page.result !== 'signin')
    return { status: page.status, body: page, page };
  return { ...(await finish(center, page.ticket, jar)), page };
}

export async function addProvider(
  center: ListeningCenter,
  admin: TestUser,
  body: Record<string, unknown>,
) {
  const res = await center.post(
    '/api/v1/auth/admin/providers',
    body,
    admin.token,
  );
  if (res.statusCode !== 200)
    throw new Error(`adding provider failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export async function userCount(
  center: ListeningCenter,
  admin: TestUser,
): Promise<number> {
  return (await center.get('/api/v1/auth/admin/users', admin.token)).json().data
    .total;
}
