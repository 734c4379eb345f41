import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import {
  BASE,
  FIREFOX,
  from,
  HOME,
  PHONE,
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

const { login, signedIn, history } = signInRequests(() => t);

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
});
