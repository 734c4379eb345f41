import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, refusal, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import {
  BASE,
  reauthRequests,
  STEP_MS,
  startReauthApp,
} from './reauth-setup.js';

/**
 * docs/api.md §10: a bearer token alone never changes how an account is signed in to. Every
 * such change takes the current password (and a code when the authenticator is on) in the
 * request; a two-step change lets its second step follow in the same session for 10 minutes.
 */
const A = '/api/v1/auth';
const ACC = `${A}/account`;
const REAUTH = refusal('需要重新验证身份');
const WRONG_OTP = refusal('两步验证码错误');

let t: TestApp;
let clock = Date.UTC(2031, 2, 1, 9, 0, 0);
beforeAll(async () => {
  t = await startReauthApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const { codeAt, login, enrolled } = reauthRequests({
  app: () => t,
  now: () => clock,
  step: () => {
    clock += STEP_MS;
  },
});

describe('two-step changes: the grant of the first step', () => {
  it('is not usable from another session of the same user, nor by another user', async () => {
    const u = await t.register();
    const other = await login(u);
    const setup = (
      await t.post(
        `${ACC}/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      failure(
        await t.post(
          `${ACC}/totp/enable`,
          { code: await codeAt(setup.secret) },
          other,
        ),
      ),
    ).toEqual([401, REAUTH]);
    const options = (
      await t.post(
        `${ACC}/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    const answer = new SoftAuthenticator(BASE).create(options);
    expect(
      failure(
        await t.post(`${ACC}/passkeys/register`, { response: answer }, other),
      ),
    ).toEqual([401, REAUTH]);
    const stranger = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/passkeys/register`,
          { response: answer },
          stranger.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    // The session that proved itself goes on.
    expect(
      (await t.post(`${ACC}/passkeys/register`, { response: answer }, u.token))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          `${ACC}/totp/enable`,
          { code: await codeAt(setup.secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('lasts 10 minutes; a wrong code at enable does not use it up; success does', async () => {
    const u = await t.register();
    const first = (
      await t.post(
        `${ACC}/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    clock += 10 * 60_000 + 1;
    expect(
      failure(
        await t.post(
          `${ACC}/totp/enable`,
          { code: await codeAt(first.secret) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);

    const setup = (
      await t.post(
        `${ACC}/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    clock += 9 * 60_000;
    expect(
      failure(await t.post(`${ACC}/totp/enable`, { code: '000000' }, u.token)),
    ).toEqual([400, WRONG_OTP]);
    expect(
      (
        await t.post(
          `${ACC}/totp/enable`,
          { code: await codeAt(setup.secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    clock += STEP_MS;
    const options = (
      await t.post(
        `${ACC}/passkeys/options`,
        { current_password: u.password, otp: await codeAt(setup.secret) },
        u.token,
      )
    ).json().data;
    clock += 10 * 60_000 + 1;
    expect(
      failure(
        await t.post(
          `${ACC}/passkeys/register`,
          { response: new SoftAuthenticator(BASE).create(options) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
  });
});

describe('passkeys need user verification', () => {
  it('refuses a registration and a sign-in without the UV flag, even for a user with the authenticator on', async () => {
    const u = await enrolled();
    const device = new SoftAuthenticator(BASE);
    const proof = async () => ({
      current_password: u.password,
      otp: await codeAt(u.secret),
    });
    const first = (
      await t.post(`${ACC}/passkeys/options`, await proof(), u.token)
    ).json().data;
    expect(
      failure(
        await t.post(
          `${ACC}/passkeys/register`,
          { response: device.create(first, { userVerified: false }) },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('通行密钥验证失败')]);
    clock += STEP_MS;
    const second = (
      await t.post(`${ACC}/passkeys/options`, await proof(), u.token)
    ).json().data;
    expect(second.authenticatorSelection.userVerification).toBe('required');
    expect(
      (
        await t.post(
          `${ACC}/passkeys/register`,
          { response: device.create(second) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const credential = device.credentials.at(-1);

    const request = (await t.post(`${A}/passkey/options`, {})).json().data;
    expect(request.userVerification).toBe('required');
    expect(
      failure(
        await t.post(`${A}/passkey/login`, {
          response: device.get(request, credential, { userVerified: false }),
        }),
      ),
    ).toEqual([400, refusal('通行密钥验证失败')]);
    const again = (await t.post(`${A}/passkey/options`, {})).json().data;
    expect(
      (
        await t.post(`${A}/passkey/login`, {
          response: device.get(again, credential),
        })
      ).statusCode,
    ).toBe(200);
  });
});
