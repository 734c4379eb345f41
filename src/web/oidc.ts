/**
 * The pages' side of the OpenID Connect provider: the browser session cookie that the
 * authorization endpoint reads, and the consent helpers. These calls send cookies
 * (same origin only); the v1 API calls in api.ts never do.
 */
import { getToken, request } from './api.js';

async function post<T>(
  path: string,
  body: unknown,
  bearer?: string,
): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/json',
  };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const reply = await request<{ data: T }>(path, {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: JSON.stringify(body ?? {}),
  });
  return reply.data;
}

/** After a sign-in: the same token becomes the session the authorization endpoint sees. */
export async function startBrowserSession(token = getToken()): Promise<void> {
  if (!token) return;
  // A failure here only means third-party sign-in asks again; the page itself is signed in.
  await post('/oauth/session', {}, token).catch(() => undefined);
}

/** On sign-out: the cookie goes with the token. */
export async function endBrowserSession(): Promise<void> {
  await post('/oauth/session/end', {}).catch(() => undefined);
}

export function oidcPost<T>(
  path: '/oauth/interaction' | '/oauth/consent',
  body: unknown,
): Promise<T> {
  return post<T>(path, body);
}
