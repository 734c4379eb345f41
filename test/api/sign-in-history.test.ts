import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { Housekeeping } from '../../src/features/housekeeping/housekeeping.js';
import { testClock } from '../helpers/clock.js';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import { location, ticketOf } from '../helpers/oidc-pages.js';
import { createHash, randomBytes } from 'node:crypto';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';

/** The sign-in history and the new-browser notice (docs/api.md §17), through the API. */
const A = '/api/v1/auth';
const BASE = 'https://id.example.com';
const HOME = '203.0.113.7';
const FIREFOX =
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1';
const DAY = 24 * 3600_000;
const NOTICE = '新设备登录提醒';

const clock = testClock(Date.UTC(2030, 5, 1, 8, 0, 0));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BASE_URL: BASE }, { now: () => clock.now });
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

interface Seen {
  at: number;
  ip: string;
  user_agent: string;
  method: string;
}

function from(ip: string, ua: string) {
  return { remoteAddress: ip, headers: { 'user-agent': ua } };
}

async function login(
  u: TestUser,
  ip = HOME,
  ua = FIREFOX,
  extra: Record<string, unknown> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${A}/login`,
    payload: { username: u.username, password: u.password, ...extra },
    ...from(ip, ua),
  });
  return res;
}

async function signedIn(u: TestUser, ip = HOME, ua = FIREFOX): Promise<string> {
  const res = await login(u, ip, ua);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token;
}

async function history(token: string): Promise<Seen[]> {
  const res = await t.get(`${A}/account/sign_ins`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.sign_ins;
}

/** The notices `u` received, counted once everything queued so far was sent. */
async function notices(u: TestUser): Promise<number> {
  await t.mailSent();
  return t.smtp.subjectsTo(u.email).filter((s) => s.includes(NOTICE)).length;
}

describe('GET account/sign_ins', () => {
  it('lists each sign-in with time, address, browser and method, newest first; registering is not one', async () => {
    const u = await t.register();
    expect(
      await t.get(`${A}/account/sign_ins`, u.token).then((r) => r.json()),
    ).toEqual({ ok: true, data: { sign_ins: [] } });
    await signedIn(u, HOME, FIREFOX);
    clock.now += 60_000;
    const token = await signedIn(u, '198.51.100.20', PHONE);
    const at = Math.floor(clock.now / 1000);
    expect(await history(token)).toEqual([
      { at, ip: '198.51.100.20', user_agent: PHONE, method: 'password' },
      { at: at - 60, ip: HOME, user_agent: FIREFOX, method: 'password' },
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: `${A}/account/sign_ins` }))
        .statusCode,
    ).toBe(401);
  });

  it('a failed sign-in is not listed; a second-factor sign-in is listed once, when it completes', async () => {
    const u = await t.register();
    const setup = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    const code = () =>
      generate({ secret: setup.secret, epoch: Math.floor(clock.now / 1000) });
    expect(
      (
        await t.post(
          `${A}/account/totp/enable`,
          { code: await code() },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    clock.now += 30_000;
    expect(failure(await login({ ...u, password: 'wrong password!' }))).toEqual(
      [401, refusal('用户名或密码错误')],
    );
    expect((await login(u)).statusCode).toBe(401);
    const done = await login(u, HOME, FIREFOX, { otp: await code() });
    expect(done.statusCode, done.body).toBe(200);
    expect(
      (await history(done.json().access_token)).map((s) => s.method),
    ).toEqual(['password']);
  });

  it('records a sign-in with an e-mail code', async () => {
    const u = await t.register();
    await t.post(`${A}/send_code`, { email: u.email, purpose: 'login' });
    const code = await t.smtp.codeFor(u.email);
    const res = await t.app.inject({
      method: 'POST',
      url: `${A}/login_by_code`,
      payload: { email: u.email, code },
      ...from(HOME, PHONE),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await history(res.json().access_token)).toEqual([
      {
        at: Math.floor(clock.now / 1000),
        ip: HOME,
        user_agent: PHONE,
        method: 'email_code',
      },
    ]);
  });

  it('records a sign-in with a passkey', async () => {
    const u = await t.register();
    const device = new SoftAuthenticator(BASE);
    const options = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await t.post(
          `${A}/account/passkeys/register`,
          { name: 'key', response: device.create(options) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const challenge = (await t.post(`${A}/passkey/options`, {})).json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: `${A}/passkey/login`,
      payload: { response: device.get(challenge) },
      ...from(HOME, FIREFOX),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await history(u.token)).map((s) => [s.method, s.ip])).toEqual([
      ['passkey', HOME],
    ]);
    // Its session is listed beside the registration's, so it can be ended from /account.
    const sessions = (await t.get(`${A}/account/sessions`, u.token)).json().data
      .sessions as Array<{ user_agent: string }>;
    expect(sessions.map((s) => s.user_agent)).toContain(FIREFOX);
  });

  it('records a device approved by its owner, from the device that polled', async () => {
    const u = await t.register();
    const start = (await t.post(`${A}/device/start`)).json().data;
    expect(
      (
        await t.post(
          `${A}/device/approve`,
          { user_code: start.user_code },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const tv = 'SmartTV/2.0';
    const res = await t.app.inject({
      method: 'POST',
      url: `${A}/device/poll`,
      payload: { device_code: start.device_code },
      ...from('192.0.2.55', tv),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await history(u.token)).map((s) => [s.method, s.ip, s.user_agent]),
    ).toEqual([['device', '192.0.2.55', tv]]);
  });

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

describe('the notice of a sign-in from a new browser or address', () => {
  it('is not sent for the first sign-in, nor from a browser and address seen before', async () => {
    const u = await t.register();
    await signedIn(u);
    await signedIn(u);
    expect(await notices(u)).toBe(0);
  });

  it('is sent once for a new address, with the time, address, browser and a link to /account', async () => {
    const u = await t.register();
    await signedIn(u);
    await signedIn(u, '198.51.100.99', FIREFOX);
    expect(await notices(u)).toBe(1);
    const text = t.smtp.textsTo(u.email).at(-1)!;
    expect(text).toContain('198.51.100.99');
    expect(text).toContain(FIREFOX);
    expect(text).toContain(
      `${new Date(clock.now).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
    expect(text).toContain(`${BASE}/account`);
    // Known from now on.
    await signedIn(u, '198.51.100.99', FIREFOX);
    expect(await notices(u)).toBe(1);
  });

  it('is sent for a new browser at a known address', async () => {
    const u = await t.register();
    await signedIn(u, HOME, FIREFOX);
    await signedIn(u, HOME, PHONE);
    expect(await notices(u)).toBe(1);
    expect(t.smtp.textsTo(u.email).at(-1)).toContain(PHONE);
  });

  it('is not sent when the person turned it off, and is again once turned back on', async () => {
    const u = await t.register();
    expect(
      (await t.get(`${A}/account/sign_in_notice`, u.token)).json(),
    ).toEqual({ ok: true, data: { enabled: true } });
    expect(
      (
        await t.post(`${A}/account/sign_in_notice`, { enabled: false }, u.token)
      ).json(),
    ).toEqual({ ok: true, data: { enabled: false } });
    expect(
      (await t.get(`${A}/account/sign_in_notice`, u.token)).json(),
    ).toEqual({ ok: true, data: { enabled: false } });
    await signedIn(u);
    await signedIn(u, '198.51.100.1', PHONE);
    expect(await notices(u)).toBe(0);
    await t.post(`${A}/account/sign_in_notice`, { enabled: true }, u.token);
    await signedIn(u, '198.51.100.2', PHONE);
    expect(await notices(u)).toBe(1);
  });

  it('refuses a setting that is not a boolean, and asks for a token', async () => {
    const u = await t.register();
    expect(
      failure(
        await t.post(`${A}/account/sign_in_notice`, { enabled: 'no' }, u.token),
      ),
    ).toEqual([400, refusal('参数错误：enabled')]);
    expect(
      failure(await t.post(`${A}/account/sign_in_notice`, {}, u.token)),
    ).toEqual([400, refusal('参数错误：enabled')]);
    expect(
      (await t.post(`${A}/account/sign_in_notice`, { enabled: false }))
        .statusCode,
    ).toBe(401);
  });
});

describe('retention', () => {
  it('keeps 90 days: older sign-ins leave the list and no longer count as seen', async () => {
    const u = await t.register();
    await signedIn(u, HOME, FIREFOX);
    clock.now += 89 * DAY;
    await signedIn(u, HOME, FIREFOX);
    expect(await notices(u)).toBe(0);
    clock.now += 2 * DAY;
    const token = await signedIn(u, '198.51.100.50', PHONE);
    expect((await history(token)).map((s) => s.ip)).toEqual([
      '198.51.100.50',
      HOME,
    ]);
    expect(await notices(u)).toBe(1);
    clock.now += 89 * DAY;
    // The one sign-in seen in the last 90 days is of another address and browser.
    const back = await signedIn(u, HOME, FIREFOX);
    expect((await history(back)).map((s) => s.ip)).toEqual([
      HOME,
      '198.51.100.50',
    ]);
    expect(await notices(u)).toBe(2);
    // An account back after more than 90 days without a sign-in is told too.
    clock.now += 91 * DAY;
    await signedIn(u, HOME, FIREFOX);
    expect(await notices(u)).toBe(3);
  });

  it('housekeeping deletes the rows older than 90 days from the database', async () => {
    const u = await t.register();
    await signedIn(u, '198.51.100.70', FIREFOX);
    clock.now += 60 * DAY;
    await signedIn(u, HOME, FIREFOX);
    const { storage } = t.runtime;
    const stored = async () =>
      (await storage.signInHistory.listRecent(u.uid, 0, 100)).map((r) => r.ip);
    // The service's own round runs every ten minutes; this one runs now, on the moved clock.
    const keeper = new Housekeeping(
      storage,
      { reload: async () => undefined },
      () => clock.now,
      createLogger('silent'),
    );
    clock.now += 31 * DAY;
    await keeper.run();
    expect(await stored()).toEqual([HOME]);
  });

  it('deleting the account deletes its sign-ins', async () => {
    const u = await t.register();
    const token = await signedIn(u);
    expect(
      await t.runtime.storage.signInHistory.listRecent(u.uid, 0, 100),
    ).toHaveLength(1);
    expect(
      (
        await t.post(`${A}/account/delete`, { password: u.password }, token)
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect(
      await t.runtime.storage.signInHistory.listRecent(u.uid, 0, 100),
    ).toEqual([]);
  });
});
