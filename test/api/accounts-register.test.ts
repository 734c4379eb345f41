import { describe, expect, it } from 'vitest';
import {
  failure,
  refusal as fail,
  createTestApp,
  uniqueName,
} from '../helpers/app.js';
import { accountsApp, freshEmail } from './accounts-setup.js';

const A = '/api/v1/auth';
const { env, sendCode } = accountsApp();

describe('register', () => {
  it('creates a player with display_name defaulting to the username', async () => {
    const username = uniqueName();
    const email = freshEmail();
    const res = await env.t.post(`${A}/register`, {
      username,
      password: 'password123',
      email,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      ok: true,
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      user: {
        uid: expect.any(Number),
        username,
        display_name: username,
        email,
        roles: ['player'],
      },
    });
    const me = await env.t.get(`${A}/me`, body.access_token);
    expect(me.json().data).toMatchObject({
      username,
      email,
      email_verified: false,
      roles: ['player'],
      app: 'account-center',
    });
  });

  it('keeps a given display_name', async () => {
    const username = uniqueName();
    const res = await env.t.post(`${A}/register`, {
      username,
      password: 'password123',
      email: freshEmail(),
      display_name: '小明 Ming',
    });
    expect(res.json().user.display_name).toBe('小明 Ming');
  });

  it('answers every field rule with its msg', async () => {
    const ok = {
      username: uniqueName(),
      password: 'password123',
      email: freshEmail(),
    };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...ok, username: 'ab' }, 400, '用户名格式不正确'],
      [{ ...ok, username: 'a'.repeat(33) }, 400, '用户名格式不正确'],
      [{ ...ok, username: 'bad name' }, 400, '用户名格式不正确'],
      [{ ...ok, username: 'bad-name' }, 400, '用户名格式不正确'],
      [{ ...ok, username: '名字名字' }, 400, '用户名格式不正确'],
      [{ ...ok, password: 'short12' }, 400, '密码长度需为 8 到 128 个字符'],
      [
        { ...ok, password: 'p'.repeat(129) },
        400,
        '密码长度需为 8 到 128 个字符',
      ],
      [{ ...ok, email: 'not-an-email' }, 400, '邮箱格式不正确'],
      [{ ...ok, email: 'a@b' }, 400, '邮箱格式不正确'],
      [{ ...ok, email: 'a b@example.com' }, 400, '邮箱格式不正确'],
      [{ ...ok, username: 123 }, 400, '参数错误：username'],
      [{ ...ok, password: undefined }, 400, '参数错误：password'],
      [{ ...ok, email: undefined }, 400, '参数错误：email'],
      [{ ...ok, display_name: 5 }, 400, '参数错误：display_name'],
      [{ ...ok, display_name: '' }, 400, '参数错误：display_name'],
      [{ ...ok, email_code: 123456 }, 400, '参数错误：email_code'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await env.t.post(`${A}/register`, body);
      expect(failure(res), JSON.stringify(body).slice(0, 80)).toEqual([
        status,
        fail(msg),
      ]);
    }
    // Boundaries that are allowed.
    const edge = await env.t.post(`${A}/register`, {
      username: `a_${Date.now().toString(36)}`.slice(0, 32),
      password: 'p'.repeat(128),
      email: freshEmail(),
    });
    expect(edge.statusCode).toBe(200);
    const eight = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: '密码密码密码密码',
      email: freshEmail(),
    });
    expect(eight.statusCode).toBe(200);
  });

  it('keeps usernames and e-mails unique ignoring case', async () => {
    const u = await env.t.register();
    const sameName = await env.t.post(`${A}/register`, {
      username: u.username.toUpperCase(),
      password: 'password123',
      email: freshEmail(),
    });
    expect(failure(sameName)).toEqual([409, fail('用户名已被占用')]);
    const sameMail = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email: u.email.toUpperCase(),
    });
    expect(failure(sameMail)).toEqual([409, fail('邮箱已被注册')]);
  });

  it('lets exactly one of concurrent registrations of a name win', async () => {
    const username = uniqueName();
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        env.t.post(`${A}/register`, {
          username: i % 2 ? username : username.toUpperCase(),
          password: 'password123',
          email: freshEmail(),
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 409, 409, 409,
    ]);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json()).toEqual(fail('用户名已被占用'));
  });

  it('verifies the e-mail with a valid register code, and refuses a wrong one', async () => {
    const email = freshEmail();
    await sendCode(email, 'register');
    const code = await env.t.smtp.codeFor(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email,
      email_code: wrongCode,
    });
    expect(failure(wrong)).toEqual([400, fail('验证码错误或已过期')]);
    const res = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email,
      email_code: code,
    });
    expect(res.statusCode).toBe(200);
    const me = await env.t.get(`${A}/me`, res.json().access_token);
    expect(me.json().data.email_verified).toBe(true);
  });

  it('refuses a register code of another e-mail or another purpose', async () => {
    const email = freshEmail();
    const other = freshEmail();
    await sendCode(email, 'register');
    const code = await env.t.smtp.codeFor(email);
    const res = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email: other,
      email_code: code,
    });
    expect(failure(res)).toEqual([400, fail('验证码错误或已过期')]);
    // A user who has this e-mail gets a login code; it must not work for register.
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    const loginCode = await env.t.smtp.codeFor(u.email);
    const reuse = await env.t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email: u.email.replace('@', '+x@'),
      email_code: loginCode,
    });
    expect(failure(reuse)).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('requires the code when REGISTER_REQUIRES_EMAIL_CODE=true', async () => {
    const strict = await createTestApp({
      REGISTER_REQUIRES_EMAIL_CODE: 'true',
    });
    try {
      const email = freshEmail();
      const without = await strict.post(`${A}/register`, {
        username: uniqueName(),
        password: 'password123',
        email,
      });
      expect(failure(without)).toEqual([400, fail('参数错误：email_code')]);
      await strict.post(`${A}/send_code`, { email, purpose: 'register' });
      const code = await strict.smtp.codeFor(email);
      const res = await strict.post(`${A}/register`, {
        username: uniqueName(),
        password: 'password123',
        email,
        email_code: code,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
