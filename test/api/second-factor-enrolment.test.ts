import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { STEP_MS, secondFactorRequests } from './second-factor-setup.js';

const A = '/api/v1/auth';
const REAUTH = refusal('需要重新验证身份');
const WRONG = refusal('两步验证码错误');

let t: TestApp;
// A moving clock: every test steps it forward, so the codes of one test never collide with another's.
let clock = Date.UTC(2030, 0, 1, 12, 0, 0);
beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

const { codeAt, login } = secondFactorRequests({
  app: () => t,
  now: () => clock,
  step: () => {
    clock += STEP_MS;
  },
});

describe('authenticator enrolment', () => {
  it('sets up a secret with a local QR code, confirms it with one code, shows 10 recovery codes once', async () => {
    const u = await t.register();
    const before = await t.get(`${A}/account/second_factor`, u.token);
    expect(before.json()).toEqual({
      ok: true,
      data: { totp: false, recovery_codes_left: 0, passkeys: [] },
    });
    const setup = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    const issuer = encodeURIComponent('账号中心');
    expect(setup.otpauth_url).toBe(
      `otpauth://totp/${issuer}:${u.username}?secret=${setup.secret}&issuer=${issuer}`,
    );
    expect(setup.qr).toMatch(/^data:image\/png;base64,/);
    // Not on until confirmed: sign-in unchanged.
    expect((await login(u)).statusCode).toBe(200);
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: '000000' }, u.token),
      ),
    ).toEqual([400, WRONG]);
    const on = await t.post(
      `${A}/account/totp/enable`,
      { code: await codeAt(setup.secret) },
      u.token,
    );
    const codes: string[] = on.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(
      (await t.get(`${A}/account/second_factor`, u.token)).json().data,
    ).toEqual({ totp: true, recovery_codes_left: 10, passkeys: [] });
    // The grant of the set-up was used up by the enable.
    expect(
      failure(
        await t.post(
          `${A}/account/totp/enable`,
          { code: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    clock += STEP_MS;
    expect(
      failure(
        await t.post(
          `${A}/account/totp/setup`,
          { current_password: u.password, otp: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([409, refusal('两步验证已开启')]);
  });

  it('refuses enable before setup and answers bad bodies with 400', async () => {
    const u = await t.register();
    // Only a set-up in this session, with the password, leads to enable.
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: '123456' }, u.token),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: 123456 }, u.token),
      ),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(await t.post(`${A}/account/totp/enable`, {}, u.token)),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
          otp: 5,
        }),
      ),
    ).toEqual([400, refusal('参数错误：otp')]);
    expect((await t.post(`${A}/account/totp/setup`, {})).statusCode).toBe(401);
  });
});
