import { describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  failure,
  refusal as fail,
  createTestApp,
  uniqueName,
} from '../helpers/app.js';
import { accountsApp, freshEmail } from './accounts-setup.js';

const A = '/api/v1/auth';
const { env, sendCode } = accountsApp();

describe('login', () => {
  it('signs in with the username in any case or the e-mail', async () => {
    const u = await env.t.register();
    for (const login of [
      u.username,
      u.username.toUpperCase(),
      u.email,
      u.email.toUpperCase(),
    ]) {
      const res = await env.t.post(`${A}/login`, {
        username: login,
        password: u.password,
      });
      expect(res.statusCode, login).toBe(200);
      expect(res.json().user.uid).toBe(u.uid);
    }
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const u = await env.t.register();
    const wrong = await env.t.post(`${A}/login`, {
      username: u.username,
      password: 'wrong password',
    });
    const unknown = await env.t.post(`${A}/login`, {
      username: uniqueName(),
      password: 'wrong password',
    });
    const unknownMail = await env.t.post(`${A}/login`, {
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
    const u = await env.t.register();
    await env.t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([403, fail('账号已被封禁')]);
    expect(
      failure(
        await env.t.post(`${A}/login`, {
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
        await env.t.post(`${A}/send_code`, { email: 'nope', purpose: 'login' }),
      ),
    ).toEqual([400, fail('邮箱格式不正确')]);
    expect(
      failure(
        await env.t.post(`${A}/send_code`, {
          email: freshEmail(),
          purpose: 'other',
        }),
      ),
    ).toEqual([400, fail('参数错误：purpose')]);
    expect(
      failure(await env.t.post(`${A}/send_code`, { email: freshEmail() })),
    ).toEqual([400, fail('参数错误：purpose')]);
    expect(
      failure(
        await env.t.post(`${A}/send_code`, { email: 1, purpose: 'login' }),
      ),
    ).toEqual([400, fail('参数错误：email')]);
  });

  it('allows one send per e-mail per 60 s, whatever the case or purpose', async () => {
    const u = await env.t.register();
    await sendCode(u.email, 'login');
    expect(
      failure(
        await env.t.post(`${A}/send_code`, {
          email: u.email,
          purpose: 'login',
        }),
      ),
    ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    expect(
      failure(
        await env.t.post(`${A}/send_code`, {
          email: u.email.toUpperCase(),
          purpose: 'verify',
        }),
      ),
    ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    await env.t.mailSent();
    expect(env.t.smtp.countTo(u.email)).toBe(1);
  });

  it('answers login and reset_password for an unknown e-mail the same, sending nothing', async () => {
    // send_code queues the mail before it answers, so once the outbox is sent a count is
    // final: a known address holds its message, an unknown one has none.
    const known = await env.t.register();
    await sendCode(known.email, 'login');
    await env.t.mailSent();
    expect(env.t.smtp.countTo(known.email)).toBe(1);
    for (const purpose of ['login', 'reset_password']) {
      const email = freshEmail();
      await sendCode(email, purpose);
      await env.t.mailSent();
      expect(env.t.smtp.countTo(email), purpose).toBe(0);
      expect(
        failure(await env.t.post(`${A}/send_code`, { email, purpose })),
        purpose,
      ).toEqual([429, fail('请求过于频繁，请稍后再试')]);
    }
  });
});
