import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeAsBrowser,
  discover,
  viaInject,
} from '../helpers/oidc-client.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';
import { jwtClaims } from '../helpers/jwt.js';

/**
 * What the OpenID Foundation certification files share: an app at ISSUER with one relying
 * party (confidential, callback CB) and its discovered metadata, and the relying-party side
 * of the code flow as oauth4webapi makes it.
 */
export const ISSUER = 'https://id.example.com';
export const CB = 'https://rp.example.com/cb';

export interface CertificationApp {
  t: TestApp;
  dev: TestUser;
  rp: CreatedApp;
  as: oauth.AuthorizationServer;
}

/** A fresh app whose clock reads `now`, with a developer, their relying party and its metadata. */
export async function startCertificationApp(
  now: () => number,
): Promise<CertificationApp> {
  const t = await createTestApp({ BASE_URL: ISSUER }, { now });
  const dev = await t.register();
  const rp = await createApp(t, dev, { redirect_uris: [CB] });
  const as = await discover(t, ISSUER);
  return { t, dev, rp, as };
}

/** The relying party's requests against the app `current()` returns once it is started. */
export function certificationFlows(current: () => CertificationApp) {
  const base = (extra: Record<string, string> = {}) => ({
    response_type: 'code',
    client_id: current().rp.client_id,
    redirect_uri: CB,
    scope: 'openid',
    state: 'st-9',
    nonce: 'n-9',
    ...extra,
  });

  /** The code flow as `user`'s browser with these extra parameters: the token response, the ID token's claims and the consent page's scopes. */
  async function signIn(user: TestUser, extra: Record<string, string>) {
    const { t, rp, as } = current();
    const first = location(await authorizeGet(t, base(extra), user.token));
    let shown: string[] = [];
    let callback = first;
    if (first.pathname === '/authorize') {
      shown = (
        await pagesPost(
          t,
          '/oauth/interaction',
          { ticket: ticketOf(first) },
          user.token,
        )
      ).json().data.scopes;
      callback = await authorizeAsBrowser(t, user, base(extra));
    }
    const params = oauth.validateAuthResponse(
      as,
      { client_id: rp.client_id },
      callback,
      'st-9',
    );
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      { client_id: rp.client_id },
      oauth.ClientSecretBasic(rp.client_secret!),
      params,
      CB,
      oauth.nopkce,
      viaInject(t),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: rp.client_id },
      res,
      { expectedNonce: 'n-9', requireIdToken: true },
    );
    return { tokens, id: jwtClaims(tokens.id_token!), shown };
  }

  const userInfo = async (accessToken: string) =>
    (
      await current().t.app.inject({
        method: 'GET',
        url: '/oauth/userinfo',
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).json();

  /** An error sent back to the registered callback with state and iss (OIDC Core §3.1.2.6). */
  function expectCallbackError(
    res: Awaited<ReturnType<typeof authorizeGet>>,
    error: string,
  ) {
    const url = location(res);
    expect(url.origin + url.pathname).toBe(CB);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      error,
      state: 'st-9',
      iss: ISSUER,
    });
  }

  return { base, signIn, userInfo, expectCallbackError };
}
