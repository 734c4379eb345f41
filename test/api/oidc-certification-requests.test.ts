import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * The requests of the OpenID Foundation's Basic OP and Config OP plans that concern request
 * objects, the `profile` claims, `acr_values` / `acr` and the `claims` request parameter,
 * made as a relying party (oauth4webapi) makes them.
 */
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
let as: oauth.AuthorizationServer;
// A moving clock, so every authenticator code below falls in a step of its own.
const clock = Date.UTC(2031, 0, 1, 12, 0, 0);

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
  dev = await t.register();
  rp = await createApp(t, dev, { redirect_uris: [CB] });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const base = (extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: rp.client_id,
  redirect_uri: CB,
  scope: 'openid',
  state: 'st-9',
  nonce: 'n-9',
  ...extra,
});

/** The code flow as `user`'s browser with these extra parameters: the token response, the ID token's claims and the consent page's scopes. */
async function signIn(user: TestUser, extra: Record<string, string>) {
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
    await t.app.inject({
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

/** An unsigned (`alg: none`) request object as the conformance suite builds it. */
function unsignedRequestObject(claims: Record<string, unknown>): string {
  const part = (o: object) =>
    Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

describe('request objects (Core §6.1)', () => {
  it("an unsigned request object of the suite's length is answered request_not_supported at the callback", async () => {
    expect(as.request_parameter_supported).toBe(false);
    expect(as.request_uri_parameter_supported).toBe(false);
    const request = unsignedRequestObject({
      iss: rp.client_id,
      aud: ISSUER,
      response_type: 'code',
      client_id: rp.client_id,
      redirect_uri: CB,
      scope: 'openid',
      state: 'st-9',
      nonce: 'n-9',
      claims: { userinfo: { name: { essential: true } } },
    });
    expect(request.length).toBeGreaterThan(270);
    expectCallbackError(
      await authorizeGet(t, base({ request })),
      'request_not_supported',
    );
  });

  it('a long request_uri is answered request_uri_not_supported at the callback', async () => {
    const requestUri = `https://rp.example.com/requests/${'r'.repeat(300)}`;
    expectCallbackError(
      await authorizeGet(t, base({ request_uri: requestUri })),
      'request_uri_not_supported',
    );
  });
});

describe('the profile claims (Core §5.1, §5.4)', () => {
  it('UserInfo and the ID token carry name, preferred_username and updated_at; discovery lists them', async () => {
    const user = await t.register();
    const { tokens, id } = await signIn(user, { scope: 'openid profile' });
    const info = await userInfo(tokens.access_token);
    expect(info).toMatchObject({
      sub: String(user.uid),
      name: expect.any(String),
      preferred_username: user.username,
      updated_at: expect.any(Number),
    });
    expect(info.updated_at).toBeLessThanOrEqual(Math.floor(clock / 1000));
    expect(id).toMatchObject({
      name: info.name,
      preferred_username: user.username,
      updated_at: info.updated_at,
    });
    expect(as.claims_supported).toEqual(
      expect.arrayContaining([
        'name',
        'preferred_username',
        'updated_at',
        'acr',
      ]),
    );
  });

  it('with scope email an ID token is issued with the access token and still carries email; UserInfo too', async () => {
    const user = await t.register();
    const { tokens, id } = await signIn(user, { scope: 'openid email' });
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(id).toMatchObject({
      email: user.email,
      email_verified: expect.any(Boolean),
    });
    expect(await userInfo(tokens.access_token)).toMatchObject({
      email: user.email,
      email_verified: id.email_verified,
    });
  });
});
