import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  discover,
  injectFetch,
  signInWithCode,
} from '../helpers/oidc-client.js';
import { sessionCookie } from '../helpers/oidc-pages.js';
import { jwtClaims } from '../helpers/jwt.js';
import { LogoutReceiver } from '../helpers/logout-receiver.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Back-Channel Logout 1.0 §2.7 for a client that holds no refresh token: registered with the
 * authorization_code grant alone (as Apache mod_auth_openidc is), it took part in the browser
 * session once an ID token with its `sid` was issued, and is told when that session ends.
 */
const ISSUER = 'https://id.example.com';
const CB = 'https://app.example.com/oidc/callback';
const BYE = 'https://app.example.com/logged-out.html';
const A = '/api/v1/auth';
let t: TestApp;
let as: oauth.AuthorizationServer;
let apache: CreatedApp;
let receiver: LogoutReceiver;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER, WEBHOOK_ALLOW_PRIVATE: 'on' });
  const dev = await t.register();
  as = await discover(t, ISSUER);
  apache = await createApp(t, dev, {
    display_name: 'Apache',
    redirect_uris: [CB],
    post_logout_redirect_uris: [BYE],
    grant_types: ['authorization_code'],
  });
  receiver = new LogoutReceiver(ISSUER, apache.client_id);
  const uri = await receiver.start(
    as.jwks_uri!,
    injectFetch(t.app) as typeof fetch,
  );
  expect(
    (
      await t.post(
        `${A}/apps/update`,
        { client_id: apache.client_id, backchannel_logout_uri: uri },
        dev.token,
      )
    ).statusCode,
  ).toBe(200);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** Signs `user` in to the client; the ID token's claims (it comes without a refresh token). */
async function signIn(user: TestUser) {
  const tokens = await signInWithCode(
    t,
    as,
    user,
    apache,
    CB,
    'openid profile',
  );
  expect(tokens.refresh_token).toBeUndefined();
  return jwtClaims(tokens.id_token!);
}

const logoutOf = (sid: string) =>
  waitFor(`a logout token for ${sid}`, 20_000, () => receiver.forSid(sid)[0]);

describe('a client without refresh tokens', () => {
  it("RP-initiated logout confirmed on the center's page sends it a logout token", async () => {
    const user = await t.register();
    const id = await signIn(user);
    const ask = await t.app.inject({
      method: 'GET',
      url: `/oauth/end_session?client_id=${apache.client_id}&post_logout_redirect_uri=${encodeURIComponent(BYE)}&state=s1`,
      headers: sessionCookie(user.token),
    });
    expect(ask.statusCode).toBe(200);
    const fields = Object.fromEntries(
      [
        ...ask.body.matchAll(
          /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
        ),
      ].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]),
    );
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/oauth/end_session/confirm',
      payload: new URLSearchParams({
        ...fields,
        decision: 'confirm',
      }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...sessionCookie(user.token),
      },
    });
    expect(confirmed.headers.location).toBe(`${BYE}?state=s1`);
    expect(await logoutOf(id.sid)).toMatchObject({
      iss: ISSUER,
      aud: apache.client_id,
      sub: String(user.uid),
      sid: id.sid,
    });
  });

  it('an RP-initiated logout with the ID token as hint, logout everywhere and a ban send one too', async () => {
    const hinted = await t.register();
    const hintedId = await signIn(hinted);
    const tokens = await signInWithCode(t, as, hinted, apache, CB);
    const res = await t.app.inject({
      method: 'GET',
      url: `/oauth/end_session?id_token_hint=${tokens.id_token}`,
      headers: sessionCookie(hinted.token),
    });
    expect(res.statusCode).toBeLessThan(400);
    await logoutOf(hintedId.sid);
    await logoutOf(jwtClaims(tokens.id_token!).sid);

    const everywhere = await t.register();
    const everywhereId = await signIn(everywhere);
    expect(
      (await t.post(`${A}/logout`, { all: true }, everywhere.token)).statusCode,
    ).toBe(200);
    expect(await logoutOf(everywhereId.sid)).toMatchObject({
      sub: String(everywhere.uid),
    });

    const admin = await t.admin();
    const banned = await t.register();
    const bannedId = await signIn(banned);
    expect(
      (
        await t.post(
          `${A}/admin/users/ban`,
          { username: banned.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await logoutOf(bannedId.sid)).toMatchObject({
      sub: String(banned.uid),
    });
  });

  it('a session that ended before is not logged out again by a later ban', async () => {
    const admin = await t.admin();
    const user = await t.register();
    const first = await signIn(user);
    expect((await t.post(`${A}/logout`, {}, user.token)).statusCode).toBe(200);
    await logoutOf(first.sid);
    const login = await t.post(`${A}/login`, {
      username: user.username,
      password: user.password,
    });
    const second = await signIn({ ...user, token: login.json().access_token });
    expect(
      (
        await t.post(
          `${A}/admin/users/ban`,
          { username: user.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    // One person's tokens are delivered in order: once the second sign-in's is in, a repeat for the first would be too.
    await logoutOf(second.sid);
    expect(receiver.forSid(first.sid)).toHaveLength(1);
  });
});
