import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { sessionCookie } from '../helpers/oidc-pages.js';

/** What the end-session files share: a relying party allowed back to BYE, and the requests. */
export const CB = 'https://rp.example.com/cb';
export const BYE = 'https://rp.example.com/bye?from=center';
export const CONFIRM = '/oauth/end_session/confirm';

/** A fresh app whose clock stands at `clock`, with a relying party that may return to BYE. */
export async function startLogoutApp(clock: number) {
  const t = await createTestApp({}, { now: () => clock });
  const dev = await t.register();
  const rp = await createApp(t, dev, { redirect_uris: [CB] });
  await t.runtime.storage.apps.update(
    rp.client_id,
    { postLogoutRedirectUris: [BYE] },
    clock,
  );
  return { t, dev, rp };
}

/** Logout requests against the app, relying party and clock `current()` returns. */
export function endSessionRequests(
  current: () => { t: TestApp; rp: CreatedApp; clock: number },
) {
  async function idTokenFor(
    person: TestUser,
    clientId = current().rp.client_id,
  ): Promise<string> {
    const { t, clock } = current();
    const user = (await t.runtime.storage.users.findById(person.uid))!;
    return t.runtime.services.oidc.minter.id({
      user,
      clientId,
      scopes: ['openid'],
      authTimeMs: clock,
      nonce: null,
      accessToken: 'x',
    });
  }

  function endSession(
    params: Record<string, string>,
    token?: string,
    method: 'GET' | 'POST' = 'GET',
  ) {
    const { t } = current();
    const q = new URLSearchParams(params).toString();
    const headers = token ? sessionCookie(token) : {};
    if (method === 'GET')
      return t.app.inject({ method, url: `/oauth/end_session?${q}`, headers });
    return t.app.inject({
      method,
      url: '/oauth/end_session',
      payload: q,
      headers: {
        ...headers,
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
  }

  const signedIn = async (token: string) =>
    (await current().t.get('/api/v1/auth/me', token)).statusCode === 200;

  return { idTokenFor, endSession, signedIn };
}

const UNESCAPE: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The hidden fields of the confirmation page's form, as the browser would post them. */
export function formOf(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
  ))
    fields[m[1]!] = m[2]!.replace(/&[a-z#0-9]+;/g, (e) => UNESCAPE[e] ?? e);
  return fields;
}
