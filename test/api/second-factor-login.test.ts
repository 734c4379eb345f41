import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { STEP_MS, secondFactorRequests } from './second-factor-setup.js';

const A = '/api/v1/auth';
const NEED = refusal('需要两步验证');
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

const { codeAt, enrolled, login } = secondFactorRequests({
  app: () => t,
  now: () => clock,
  step: () => {
    clock += STEP_MS;
  },
});

describe('seed login with a second factor', () => {
  it('leaves users without a second factor unchanged, with or without otp', async () => {
    const u = await t.register();
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
        await t.post(`${A}/login`, {
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
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
    expect(
      failure(
        await t.post(`${A}/login`, {
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
      (await t.get(`${A}/me`, ok.json().access_token)).json().data.username,
    ).toBe(u.username);
  });

  it('accepts one step either side, never a code of a step already used', async () => {
    const u = await enrolled();
    clock += 10 * STEP_MS;
    const at = (steps: number) => codeAt(u.secret, clock + steps * STEP_MS);
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
    clock += 3 * STEP_MS;
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
      (await t.get(`${A}/account/second_factor`, token)).json().data
        .recovery_codes_left,
    ).toBe(8);
  });

  it('login_by_code needs the second factor too; the e-mail code waits for it', async () => {
    const u = await enrolled();
    await t.post(`${A}/send_code`, { email: u.email, purpose: 'login' });
    const code = await t.smtp.codeFor(u.email);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, { email: u.email, code: '000000' }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect(
      failure(await t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([401, NEED]);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: '000000',
        }),
      ),
    ).toEqual([401, WRONG]);
    expect(
      (
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: await codeAt(u.secret),
        })
      ).statusCode,
    ).toBe(200);
    clock += STEP_MS;
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
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
    const other = await t.app.inject({
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
