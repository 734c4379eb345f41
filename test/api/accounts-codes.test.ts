import { describe, expect, it } from 'vitest';
import { failure, refusal as fail } from '../helpers/app.js';
import { accountsApp, freshEmail } from './accounts-setup.js';

const A = '/api/v1/auth';
const { env, sendCode } = accountsApp();

describe('login_by_code', () => {
  it('signs in once with a login code', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const code = await env.t.smtp.codeFor(u.email);
    const res = await env.t.post(`${A}/login_by_code`, {
      email: u.email.toUpperCase(),
      code,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().user).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: u.username,
      email: u.email,
      roles: ['player'],
    });
    expect(
      failure(await env.t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('refuses a code of another purpose or another e-mail', async () => {
    const u = await env.t.register();
    const v = await env.t.register();
    await sendCode(u.email, 'verify');
    const verifyCode = await env.t.smtp.codeFor(u.email);
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code: verifyCode,
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    await sendCode(v.email, 'login');
    const vCode = await env.t.smtp.codeFor(v.email);
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, { email: u.email, code: vCode }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    // v's code is still good for v: a wrong try elsewhere did not use it.
    expect(
      (await env.t.post(`${A}/login_by_code`, { email: v.email, code: vCode }))
        .statusCode,
    ).toBe(200);
  });

  it('burns a code after 5 wrong tries', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const code = await env.t.smtp.codeFor(u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect(
        failure(
          await env.t.post(`${A}/login_by_code`, {
            email: u.email,
            code: wrong,
          }),
        ),
      ).toEqual([400, fail('验证码错误或已过期')]);
    }
    expect(
      failure(await env.t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('accepts the right code after fewer than 5 wrong tries', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const code = await env.t.smtp.codeFor(u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      await env.t.post(`${A}/login_by_code`, { email: u.email, code: wrong });
    expect(
      (await env.t.post(`${A}/login_by_code`, { email: u.email, code }))
        .statusCode,
    ).toBe(200);
  });

  it('answers an unknown e-mail like a wrong code and a banned user with 403', async () => {
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: freshEmail(),
          code: '123456',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await env.t.post(`${A}/login_by_code`, {
          email: 'bad',
          code: '123456',
        }),
      ),
    ).toEqual([400, fail('邮箱格式不正确')]);
    expect(
      failure(await env.t.post(`${A}/login_by_code`, { email: freshEmail() })),
    ).toEqual([400, fail('参数错误：code')]);
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const code = await env.t.smtp.codeFor(u.email);
    await env.t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(
      failure(await env.t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([403, fail('账号已被封禁')]);
  });
});

describe('verify_email', () => {
  it('needs a Bearer token and a verify code of the own e-mail', async () => {
    const u = await env.t.register();
    expect(
      failure(await env.t.post(`${A}/verify_email`, { code: '123456' })),
    ).toEqual([401, fail('令牌无效或已过期')]);
    await sendCode(u.email, 'login');
    const loginCode = await env.t.smtp.codeFor(u.email);
    expect(
      failure(
        await env.t.post(`${A}/verify_email`, { code: loginCode }, u.token),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(failure(await env.t.post(`${A}/verify_email`, {}, u.token))).toEqual(
      [400, fail('参数错误：code')],
    );
  });

  it('marks the e-mail verified, visible at me at once', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'verify');
    const code = await env.t.smtp.codeFor(u.email);
    expect(
      failure(await env.t.post(`${A}/verify_email`, { code }, u.token)),
    ).toEqual([200, { ok: true, data: { email_verified: true } }]);
    expect(
      (await env.t.get(`${A}/me`, u.token)).json().data.email_verified,
    ).toBe(true);
    expect(
      failure(await env.t.post(`${A}/verify_email`, { code }, u.token)),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });
});

describe('reset_password', () => {
  it('sets the new password and ends every earlier token', async () => {
    const u = await env.t.register();
    const second = (
      await env.t.post(`${A}/login`, {
        username: u.username,
        password: u.password,
      })
    ).json().access_token;
    await sendCode(u.email, 'reset_password');
    const code = await env.t.smtp.codeFor(u.email);
    const res = await env.t.post(`${A}/reset_password`, {
      email: u.email,
      code,
      new_password: 'brand new password',
    });
    expect(failure(res)).toEqual([200, { ok: true, data: {} }]);
    for (const token of [u.token, second]) {
      expect(failure(await env.t.get(`${A}/me`, token))).toEqual([
        401,
        fail('令牌无效或已过期'),
      ]);
      expect(
        failure(await env.t.post(`${A}/refresh`, undefined, token)),
      ).toEqual([401, fail('令牌无效或已过期')]);
    }
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([401, fail('用户名或密码错误')]);
    const login = await env.t.post(`${A}/login`, {
      username: u.username,
      password: 'brand new password',
    });
    expect(login.statusCode).toBe(200);
    expect(
      (await env.t.get(`${A}/me`, login.json().access_token)).statusCode,
    ).toBe(200);
    // The code is single use.
    expect(
      failure(
        await env.t.post(`${A}/reset_password`, {
          email: u.email,
          code,
          new_password: 'another password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('refuses a login code, a short password and an unknown e-mail', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const loginCode = await env.t.smtp.codeFor(u.email);
    expect(
      failure(
        await env.t.post(`${A}/reset_password`, {
          email: u.email,
          code: loginCode,
          new_password: 'brand new password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await env.t.post(`${A}/reset_password`, {
          email: u.email,
          code: loginCode,
          new_password: 'short',
        }),
      ),
    ).toEqual([400, fail('密码长度需为 8 到 128 个字符')]);
    expect(
      failure(
        await env.t.post(`${A}/reset_password`, {
          email: freshEmail(),
          code: '123456',
          new_password: 'brand new password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await env.t.post(`${A}/reset_password`, {
          email: u.email,
          code: '123456',
        }),
      ),
    ).toEqual([400, fail('参数错误：new_password')]);
    // The login code was not used up by the failed reset.
    expect(
      (
        await env.t.post(`${A}/login_by_code`, {
          email: u.email,
          code: loginCode,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
  });
});
