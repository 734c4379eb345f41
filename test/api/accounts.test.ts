import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  failure,
  refusal as fail,
  createTestApp,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const A = '/api/v1/auth';
const freshEmail = () => `${uniqueName('mail')}@example.com`;

async function sendCode(email: string, purpose: string) {
  const res = await t.post(`${A}/send_code`, { email, purpose });
  expect(failure(res), `send_code ${purpose} ${email}`).toEqual([
    200,
    { ok: true, data: { expires_in: 600, resend_after: 60 } },
  ]);
}

describe('register', () => {
  it('creates a player with display_name defaulting to the username', async () => {
    const username = uniqueName();
    const email = freshEmail();
    const res = await t.post(`${A}/register`, {
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
    const me = await t.get(`${A}/me`, body.access_token);
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
    const res = await t.post(`${A}/register`, {
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
      const res = await t.post(`${A}/register`, body);
      expect(failure(res), JSON.stringify(body).slice(0, 80)).toEqual([
        status,
        fail(msg),
      ]);
    }
    // Boundaries that are allowed.
    const edge = await t.post(`${A}/register`, {
      username: `a_${Date.now().toString(36)}`.slice(0, 32),
      password: 'p'.repeat(128),
      email: freshEmail(),
    });
    expect(edge.statusCode).toBe(200);
    const eight = await t.post(`${A}/register`, {
      username: uniqueName(),
      password: '密码密码密码密码',
      email: freshEmail(),
    });
    expect(eight.statusCode).toBe(200);
  });

  it('keeps usernames and e-mails unique ignoring case', async () => {
    const u = await t.register();
    const sameName = await t.post(`${A}/register`, {
      username: u.username.toUpperCase(),
      password: 'password123',
      email: freshEmail(),
    });
    expect(failure(sameName)).toEqual([409, fail('用户名已被占用')]);
    const sameMail = await t.post(`${A}/register`, {
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
        t.post(`${A}/register`, {
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
    const code = await t.smtp.codeFor(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email,
      email_code: wrongCode,
    });
    expect(failure(wrong)).toEqual([400, fail('验证码错误或已过期')]);
    const res = await t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email,
      email_code: code,
    });
    expect(res.statusCode).toBe(200);
    const me = await t.get(`${A}/me`, res.json().access_token);
    expect(me.json().data.email_verified).toBe(true);
  });

  it('refuses a register code of another e-mail or another purpose', async () => {
    const email = freshEmail();
    const other = freshEmail();
    await sendCode(email, 'register');
    const code = await t.smtp.codeFor(email);
    const res = await t.post(`${A}/register`, {
      username: uniqueName(),
      password: 'password123',
      email: other,
      email_code: code,
    });
    expect(failure(res)).toEqual([400, fail('验证码错误或已过期')]);
    // A user who has this e-mail gets a login code; it must not work for register.
    const u = await t.register();
    await sendCode(u.email, 'login');
    const loginCode = await t.smtp.codeFor(u.email);
    const reuse = await t.post(`${A}/register`, {
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

describe('login', () => {
  it('signs in with the username in any case or the e-mail', async () => {
    const u = await t.register();
    for (const login of [
      u.username,
      u.username.toUpperCase(),
      u.email,
      u.email.toUpperCase(),
    ]) {
      const res = await t.post(`${A}/login`, {
        username: login,
        password: u.password,
      });
      expect(res.statusCode, login).toBe(200);
      expect(res.json().user.uid).toBe(u.uid);
    }
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const u = await t.register();
    const wrong = await t.post(`${A}/login`, {
      username: u.username,
      password: 'wrong password',
    });
    const unknown = await t.post(`${A}/login`, {
      username: uniqueName(),
      password: 'wrong password',
    });
    const unknownMail = await t.post(`${A}/login`, {
      username: freshEmail(),
      password: 'wrong password',
    });
    for (const r of [wrong, unknown, unknownMail]) {
      expect(failure(r)).toEqual([401, fail('用户名或密码错误')]);
      expect(r.body).toBe(wrong.body);
      expect(r.headers['content-type']).toBe(wrong.headers['content-type']);
    }
  });

  it('refuses a banned user after the password check', async () => {
    const u = await t.register();
    await t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([403, fail('账号已被封禁')]);
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, fail('用户名或密码错误')]);
  });
});

describe('send_code', () => {
  it('mails a 6-digit code for each purpose, one send per 60 s, valid 10 minutes', async () => {
    const clock = testClock();
    const timed = await createTestApp({}, { now: () => clock.now });
    try {
      const u = await timed.register();
      for (const purpose of ['login', 'verify', 'reset_password']) {
        const before = timed.smtp.countTo(u.email);
        const res = await timed.post(`${A}/send_code`, {
          email: u.email,
          purpose,
        });
        expect(failure(res), purpose).toEqual([
          200,
          { ok: true, data: { expires_in: 600, resend_after: 60 } },
        ]);
        await timed.smtp.nextCodeFor(u.email, before);
        await timed.mailSent();
        expect(timed.smtp.countTo(u.email)).toBe(before + 1);
        clock.now += 59_000;
        expect(
          failure(
            await timed.post(`${A}/send_code`, { email: u.email, purpose }),
          ),
          purpose,
        ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
        clock.now += 1_001;
      }
      const email = freshEmail();
      expect(
        (await timed.post(`${A}/send_code`, { email, purpose: 'register' }))
          .statusCode,
      ).toBe(200);
      const code = await timed.smtp.codeFor(email);
      expect(code).toMatch(/^\d{6}$/);
      // Ten minutes later the code is gone.
      clock.now += 600_001;
      const late = await timed.post(`${A}/register`, {
        username: uniqueName(),
        password: 'password123',
        email,
        email_code: code,
      });
      expect(failure(late)).toEqual([400, fail('验证码错误或已过期')]);
      // Within ten minutes it works.
      expect(
        (await timed.post(`${A}/send_code`, { email, purpose: 'register' }))
          .statusCode,
      ).toBe(200);
      const fresh = await timed.smtp.nextCodeFor(email, 1);
      clock.now += 599_000;
      const inTime = await timed.post(`${A}/register`, {
        username: uniqueName(),
        password: 'password123',
        email,
        email_code: fresh,
      });
      expect(inTime.statusCode).toBe(200);
    } finally {
      await timed.close();
      clock.restore();
    }
  });

  it('validates its fields', async () => {
    expect(
      failure(
        await t.post(`${A}/send_code`, { email: 'nope', purpose: 'login' }),
      ),
    ).toEqual([400, fail('邮箱格式不正确')]);
    expect(
      failure(
        await t.post(`${A}/send_code`, {
          email: freshEmail(),
          purpose: 'other',
        }),
      ),
    ).toEqual([400, fail('参数错误：purpose')]);
    expect(
      failure(await t.post(`${A}/send_code`, { email: freshEmail() })),
    ).toEqual([400, fail('参数错误：purpose')]);
    expect(
      failure(await t.post(`${A}/send_code`, { email: 1, purpose: 'login' })),
    ).toEqual([400, fail('参数错误：email')]);
  });

  it('allows one send per e-mail per 60 s, whatever the case or purpose', async () => {
    const u = await t.register();
    await sendCode(u.email, 'login');
    expect(
      failure(
        await t.post(`${A}/send_code`, { email: u.email, purpose: 'login' }),
      ),
    ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    expect(
      failure(
        await t.post(`${A}/send_code`, {
          email: u.email.toUpperCase(),
          purpose: 'verify',
        }),
      ),
    ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    await t.mailSent();
    expect(t.smtp.countTo(u.email)).toBe(1);
  });

  it('answers login and reset_password for an unknown e-mail the same, sending nothing', async () => {
    // send_code queues the mail before it answers, so once the outbox is sent a count is
    // final: a known address holds its message, an unknown one has none.
    const known = await t.register();
    await sendCode(known.email, 'login');
    await t.mailSent();
    expect(t.smtp.countTo(known.email)).toBe(1);
    for (const purpose of ['login', 'reset_password']) {
      const email = freshEmail();
      await sendCode(email, purpose);
      await t.mailSent();
      expect(t.smtp.countTo(email), purpose).toBe(0);
      expect(
        failure(await t.post(`${A}/send_code`, { email, purpose })),
        purpose,
      ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    }
  });
});

describe('login_by_code', () => {
  it('signs in once with a login code', async () => {
    const u = await t.register();
    await sendCode(u.email, 'login');
    const code = await t.smtp.codeFor(u.email);
    const res = await t.post(`${A}/login_by_code`, {
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
      failure(await t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('refuses a code of another purpose or another e-mail', async () => {
    const u = await t.register();
    const v = await t.register();
    await sendCode(u.email, 'verify');
    const verifyCode = await t.smtp.codeFor(u.email);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code: verifyCode,
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    await sendCode(v.email, 'login');
    const vCode = await t.smtp.codeFor(v.email);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, { email: u.email, code: vCode }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    // v's code is still good for v: a wrong try elsewhere did not use it.
    expect(
      (await t.post(`${A}/login_by_code`, { email: v.email, code: vCode }))
        .statusCode,
    ).toBe(200);
  });

  it('burns a code after 5 wrong tries', async () => {
    const u = await t.register();
    await sendCode(u.email, 'login');
    const code = await t.smtp.codeFor(u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect(
        failure(
          await t.post(`${A}/login_by_code`, { email: u.email, code: wrong }),
        ),
      ).toEqual([400, fail('验证码错误或已过期')]);
    }
    expect(
      failure(await t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('accepts the right code after fewer than 5 wrong tries', async () => {
    const u = await t.register();
    await sendCode(u.email, 'login');
    const code = await t.smtp.codeFor(u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      await t.post(`${A}/login_by_code`, { email: u.email, code: wrong });
    expect(
      (await t.post(`${A}/login_by_code`, { email: u.email, code })).statusCode,
    ).toBe(200);
  });

  it('answers an unknown e-mail like a wrong code and a banned user with 403', async () => {
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
          email: freshEmail(),
          code: '123456',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, { email: 'bad', code: '123456' }),
      ),
    ).toEqual([400, fail('邮箱格式不正确')]);
    expect(
      failure(await t.post(`${A}/login_by_code`, { email: freshEmail() })),
    ).toEqual([400, fail('参数错误：code')]);
    const u = await t.register();
    await sendCode(u.email, 'login');
    const code = await t.smtp.codeFor(u.email);
    await t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(
      failure(await t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([403, fail('账号已被封禁')]);
  });
});

describe('verify_email', () => {
  it('needs a Bearer token and a verify code of the own e-mail', async () => {
    const u = await t.register();
    expect(
      failure(await t.post(`${A}/verify_email`, { code: '123456' })),
    ).toEqual([401, fail('令牌无效或已过期')]);
    await sendCode(u.email, 'login');
    const loginCode = await t.smtp.codeFor(u.email);
    expect(
      failure(await t.post(`${A}/verify_email`, { code: loginCode }, u.token)),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(failure(await t.post(`${A}/verify_email`, {}, u.token))).toEqual([
      400,
      fail('参数错误：code'),
    ]);
  });

  it('marks the e-mail verified, visible at me at once', async () => {
    const u = await t.register();
    await sendCode(u.email, 'verify');
    const code = await t.smtp.codeFor(u.email);
    expect(
      failure(await t.post(`${A}/verify_email`, { code }, u.token)),
    ).toEqual([200, { ok: true, data: { email_verified: true } }]);
    expect((await t.get(`${A}/me`, u.token)).json().data.email_verified).toBe(
      true,
    );
    expect(
      failure(await t.post(`${A}/verify_email`, { code }, u.token)),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });
});

describe('reset_password', () => {
  it('sets the new password and ends every earlier token', async () => {
    const u = await t.register();
    const second = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token;
    await sendCode(u.email, 'reset_password');
    const code = await t.smtp.codeFor(u.email);
    const res = await t.post(`${A}/reset_password`, {
      email: u.email,
      code,
      new_password: 'brand new password',
    });
    expect(failure(res)).toEqual([200, { ok: true, data: {} }]);
    for (const token of [u.token, second]) {
      expect(failure(await t.get(`${A}/me`, token))).toEqual([
        401,
        fail('令牌无效或已过期'),
      ]);
      expect(failure(await t.post(`${A}/refresh`, undefined, token))).toEqual([
        401,
        fail('令牌无效或已过期'),
      ]);
    }
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([401, fail('用户名或密码错误')]);
    const login = await t.post(`${A}/login`, {
      username: u.username,
      password: 'brand new password',
    });
    expect(login.statusCode).toBe(200);
    expect((await t.get(`${A}/me`, login.json().access_token)).statusCode).toBe(
      200,
    );
    // The code is single use.
    expect(
      failure(
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code,
          new_password: 'another password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
  });

  it('refuses a login code, a short password and an unknown e-mail', async () => {
    const u = await t.register();
    await sendCode(u.email, 'login');
    const loginCode = await t.smtp.codeFor(u.email);
    expect(
      failure(
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code: loginCode,
          new_password: 'brand new password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code: loginCode,
          new_password: 'short',
        }),
      ),
    ).toEqual([400, fail('密码长度需为 8 到 128 个字符')]);
    expect(
      failure(
        await t.post(`${A}/reset_password`, {
          email: freshEmail(),
          code: '123456',
          new_password: 'brand new password',
        }),
      ),
    ).toEqual([400, fail('验证码错误或已过期')]);
    expect(
      failure(
        await t.post(`${A}/reset_password`, { email: u.email, code: '123456' }),
      ),
    ).toEqual([400, fail('参数错误：new_password')]);
    // The login code was not used up by the failed reset.
    expect(
      (await t.post(`${A}/login_by_code`, { email: u.email, code: loginCode }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
  });
});
