import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import { createTestApp, failure, type TestApp } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import { location, ticketOf } from '../helpers/oidc-pages.js';
import { createHash, randomBytes } from 'node:crypto';
import {
  BASE,
  FIREFOX,
  from,
  HOME,
  PHONE,
  type Seen,
  signInRequests,
} from './sign-in-history-setup.js';

/** The sign-in history and the new-browser notice (docs/api.md §17), through the API. */
const A = '/api/v1/auth';

const clock = testClock(Date.UTC(2030, 5, 1, 8, 0, 0));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BASE_URL: BASE }, { now: () => clock.now });
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

const { signedIn, history, notices } = signInRequests(() => t);

describe('GET account/sign_ins', () => {
  it('records an OpenID Connect sign-in at an application', async () => {
    const owner = await t.register();
    const rp = await createApp(t, owner, {
      redirect_uris: ['https://rp.example.com/cb'],
    });
    const u = await t.register();
    const tokens = await signInWithCode(
      t,
      await discover(t, BASE),
      u,
      rp,
      'https://rp.example.com/cb',
    );
    expect(tokens.access_token).toBeTruthy();
    expect((await history(u.token)).map((s) => s.method)).toEqual(['oidc']);
  });

  it('records an OpenID Connect sign-in from the browser that went through /oauth/authorize, not the back end', async () => {
    const owner = await t.register();
    const redirectUri = 'https://rp.example.com/cb';
    const rp = await createApp(t, owner, { redirect_uris: [redirectUri] });
    const u = await t.register();
    const token = await signedIn(u, HOME, FIREFOX);
    const browser = {
      ...from(HOME, FIREFOX).headers,
      cookie: `ac_session=${token}`,
    };
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: rp.client_id,
      redirect_uri: redirectUri,
      scope: 'openid profile',
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const asked = await t.app.inject({
      method: 'GET',
      url: `/oauth/authorize?${query}`,
      remoteAddress: HOME,
      headers: browser,
    });
    const consent = await t.app.inject({
      method: 'POST',
      url: '/oauth/consent',
      remoteAddress: HOME,
      headers: { ...browser, 'content-type': 'application/json' },
      payload: JSON.stringify({
        ticket: ticketOf(location(asked)),
        decision: 'allow',
      }),
    });
    expect(consent.statusCode, consent.body).toBe(200);
    const code = new URL(consent.json().data.redirect_to).searchParams.get(
      'code',
    )!;
    // The application's back end redeems the code from its own address, with its own client.
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '198.51.100.77',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'node',
        authorization: `Basic ${Buffer.from(`${rp.client_id}:${rp.client_secret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).toString(),
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(
      (await history(token)).map((s) => [s.method, s.ip, s.user_agent]),
    ).toEqual([
      ['oidc', HOME, FIREFOX],
      ['password', HOME, FIREFOX],
    ]);
    expect(await notices(u)).toBe(0);
  });

  it('keeps the newest 50', async () => {
    const u = await t.register();
    for (let i = 0; i < 52; i++) {
      clock.now += 1000;
      await signedIn(u);
    }
    const list = await history(u.token);
    expect(list).toHaveLength(50);
    expect(list[0]!.at).toBe(Math.floor(clock.now / 1000));
  });

  it('administrators see a user’s sign-ins; nobody else does', async () => {
    const u = await t.register();
    await signedIn(u, HOME, PHONE);
    const admin = await t.admin();
    const res = await t.get(
      `${A}/admin/users/sign_ins?username=${u.username}`,
      admin.token,
    );
    expect(
      res.json().data.sign_ins.map((s: Seen) => [s.ip, s.user_agent]),
    ).toEqual([[HOME, PHONE]]);
    expect(
      (await t.get(`${A}/admin/users/sign_ins?username=${u.username}`, u.token))
        .statusCode,
    ).toBe(403);
    expect(
      failure(
        await t.get(
          `${A}/admin/users/sign_ins?username=nobody_here`,
          admin.token,
        ),
      )[0],
    ).toBe(404);
    expect(
      failure(await t.get(`${A}/admin/users/sign_ins`, admin.token))[0],
    ).toBe(400);
  });
});
