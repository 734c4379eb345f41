import { describe, expect, it } from 'vitest';
import { failure, refusal } from '../helpers/app.js';
import { STEP_MS, secondFactorApp } from './second-factor-setup.js';

const A = '/api/v1/auth';
const NEED = refusal('需要两步验证');
const WRONG = refusal('两步验证码错误');

const { env, codeAt, enrolled, login } = secondFactorApp();

describe('seed login with a second factor', () => {
  it('leaves users without a second factor unchanged, with or without otp', async () => {
    const u = await env.t.register();
    const plain = await login(u);
    const withOtp = await login(u, { otp: '123456' });
    for (const res of [plain, withOtp]) {
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual([
        'access_token',
        'expires_in',
        'ok',
        'token_type',
        'user',
      ]);
    }
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
  });

  it('asks for the second factor only after the right password', async () => {
    const u = await enrolled();
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
          otp: await codeAt(u.secret),
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
    expect(failure(await login(u))).toEqual([401, NEED]);
    expect(failure(await login(u, { otp: '000000' }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: 'not a code' }))).toEqual([
      401,
      WRONG,
    ]);
    const ok = await login(u, { otp: await codeAt(u.secret) });
    expect(ok.statusCode).toBe(200);
    expect(
      (await env.t.get(`${A}/me`, ok.json().access_token)).json().data.username,
    ).toBe(u.username);
  });

  it('accepts one step either side, never a code of a step already used', async () => {
    const u = await enrolled();
    env.clock += 10 * STEP_MS;
    const at = (steps: number) => codeAt(u.secret, env.clock + steps * STEP_MS);
    expect(failure(await login(u, { otp: await at(-2) }))).toEqual([
      401,
      WRONG,
    ]);
    expect((await login(u, { otp: await at(-1) })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: await at(-1) }))).toEqual([
      401,
      WRONG,
    ]);
    expect((await login(u, { otp: await at(0) })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: await at(0) }))).toEqual([401, WRONG]);
    expect((await login(u, { otp: await at(1) })).statusCode).toBe(200);
    // After the step ahead was used, the current one is older: refused too.
    expect(failure(await login(u, { otp: await at(0) }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: await at(2) }))).toEqual([401, WRONG]);
    env.clock += 3 * STEP_MS;
    expect((await login(u, { otp: await codeAt(u.secret) })).statusCode).toBe(
      200,
    );
  });

  it('takes each recovery code once, in any case and with or without the dash', async () => {
    const u = await enrolled();
    const [first, second] = u.recovery as [string, string];
    expect((await login(u, { otp: first })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: first }))).toEqual([401, WRONG]);
    expect(
      (await login(u, { otp: ` ${second.replace('-', '').toUpperCase()} ` }))
        .statusCode,
    ).toBe(200);
    const token = (await login(u, { otp: await codeAt(u.secret) })).json()
      .access_token;
    expect(
      (await env.t.get(`${A}/account/second_factor`, token)).json().data
        .recovery_codes_left,
    ).toBe(8);
  });

  it('login_by_code needs the second factor too; the e-mail code waits for it', async () => {
    const u = await enrolled();
    await env.t.post(`${A}/send_code`, { email: u.email, purpose: 'login' });
    const code = await env.t.smtp.codeFor(u.email);
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code: '000000',
        }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect(
      failure(await env.t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([401, NEED]);
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: '000000',
        }),
      ),
    ).toEqual([401, WRONG]);
    expect(
      (
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: await codeAt(u.secret),
        })
      ).statusCode,
    ).toBe(200);
    env.clock += STEP_MS;
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: await codeAt(u.secret),
        }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
  });

  it('counts otp tries per account and address: the sixth wrong one is 429, and so is a right one then', async () => {
    const u = await enrolled();
    for (let i = 0; i < 5; i++)
      expect(failure(await login(u, { otp: '000000' }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: '000000' }))).toEqual([
      429,
      refusal('请求过于频繁，请稍后再试'),
    ]);
    expect((await login(u, { otp: await codeAt(u.secret) })).statusCode).toBe(
      429,
    );
    // From another address the pair counter is fresh.
    const other = await env.t.app.inject({
      method: 'POST',
      url: `${A}/login`,
      remoteAddress: '10.1.2.3',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        username: u.username,
        password: u.password,
        otp: await codeAt(u.secret),
      }),
    });
    expect(other.statusCode).toBe(200);
  });
});
