import { describe, expect, it } from 'vitest';
import { failure, refusal } from '../helpers/app.js';
import { STEP_MS, secondFactorApp } from './second-factor-setup.js';

const A = '/api/v1/auth';
const REAUTH = refusal('需要重新验证身份');
const WRONG = refusal('两步验证码错误');

const { env, codeAt, login } = secondFactorApp();

describe('authenticator enrolment', () => {
  it('sets up a secret with a local QR code, confirms it with one code, shows 10 recovery codes once', async () => {
    const u = await env.t.register();
    const before = await env.t.get(`${A}/account/second_factor`, u.token);
    expect(before.json()).toEqual({
      ok: true,
      data: { totp: false, recovery_codes_left: 0, passkeys: [] },
    });
    const setup = (
      await env.t.post(
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
        await env.t.post(
          `${A}/account/totp/enable`,
          { code: '000000' },
          u.token,
        ),
      ),
    ).toEqual([400, WRONG]);
    const on = await env.t.post(
      `${A}/account/totp/enable`,
      { code: await codeAt(setup.secret) },
      u.token,
    );
    const codes: string[] = on.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(
      (await env.t.get(`${A}/account/second_factor`, u.token)).json().data,
    ).toEqual({ totp: true, recovery_codes_left: 10, passkeys: [] });
    // The grant of the set-up was used up by the enable.
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/enable`,
          { code: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    env.clock += STEP_MS;
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/setup`,
          { current_password: u.password, otp: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([409, refusal('两步验证已开启')]);
  });

  it('refuses enable before setup and answers bad bodies with 400', async () => {
    const u = await env.t.register();
    // Only a set-up in this session, with the password, leads to enable.
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/enable`,
          { code: '123456' },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await env.t.post(`${A}/account/totp/enable`, { code: 123456 }, u.token),
      ),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(await env.t.post(`${A}/account/totp/enable`, {}, u.token)),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
          otp: 5,
        }),
      ),
    ).toEqual([400, refusal('参数错误：otp')]);
    expect((await env.t.post(`${A}/account/totp/setup`, {})).statusCode).toBe(
      401,
    );
  });
});
