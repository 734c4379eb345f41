import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import {
  createTestApp,
  failure,
  refusal,
  TEST_SECRET,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { jwtClaims } from '../helpers/jwt.js';

const A = '/api/v1/auth';
const ACC = `${A}/account`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = async (u: TestUser, headers: Record<string, string> = {}) =>
  (
    await t.post(
      `${A}/login`,
      { username: u.username, password: u.password },
      undefined,
      headers,
    )
  ).json().access_token as string;
const sessionsOf = async (token: string) =>
  (await t.get(`${ACC}/sessions`, token)).json().data.sessions as Array<
    Record<string, unknown>
  >;

describe('sessions', () => {
  it('lists every sign-in with app, times, address and user agent; marks the current one', async () => {
    const u = await t.register();
    const phone = await login(u, { 'user-agent': 'PhoneBrowser/1.0' });
    const game = (await t.post(`${A}/game_token`, {}, u.token)).json()
      .access_token as string;
    const list = await sessionsOf(phone);
    expect(list).toHaveLength(3);
    const mine = list.find((s) => s.current)!;
    expect(mine).toMatchObject({
      id: jwtClaims(phone).sid,
      app: 'account-center',
      app_name: '账号中心',
      user_agent: 'PhoneBrowser/1.0',
      ip: '127.0.0.1',
    });
    expect(typeof mine.created_at).toBe('number');
    expect(list.find((s) => s.id === jwtClaims(game).sid)).toMatchObject({
      app_name: '游戏',
      current: false,
    });
    expect(
      (await t.get(`${ACC}/sessions`, u.token)).headers['cache-control'],
    ).toBeUndefined();
  });

  it('ending one session refuses its token (and a refreshed sibling) at once; others live', async () => {
    const u = await t.register();
    const other = await login(u);
    const refreshed = (await t.post(`${A}/refresh`, {}, other)).json()
      .access_token as string;
    expect(jwtClaims(refreshed).sid).toBe(jwtClaims(other).sid);
    const res = await t.post(
      `${ACC}/sessions/end`,
      { id: jwtClaims(other).sid },
      u.token,
    );
    expect(res.json()).toEqual({ ok: true, data: {} });
    expect(failure(await t.get(`${A}/me`, other))).toEqual([
      401,
      refusal('令牌无效或已过期'),
    ]);
    expect((await t.get(`${A}/me`, refreshed)).statusCode).toBe(401);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    expect((await sessionsOf(u.token)).map((s) => s.id)).toEqual([
      jwtClaims(u.token).sid,
    ]);
    const audit = await t.runtime.storage.audit.list(
      { action: 'session.end' },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({
      actor: u.username,
      target: u.username,
    });
  });

  it("another user's session, an unknown or an ended one is 404", async () => {
    const u = await t.register();
    const v = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/sessions/end`,
          { id: jwtClaims(v.token).sid },
          u.token,
        ),
      ),
    ).toEqual([404, refusal('会话不存在')]);
    expect((await t.get(`${A}/me`, v.token)).statusCode).toBe(200);
    expect(
      failure(await t.post(`${ACC}/sessions/end`, { id: 'nope' }, u.token)),
    ).toEqual([404, refusal('会话不存在')]);
    expect(failure(await t.post(`${ACC}/sessions/end`, {}, u.token))).toEqual([
      400,
      refusal('参数错误：id'),
    ]);
    expect(
      failure(await t.post(`${ACC}/sessions/end`, { id: 5 }, u.token)),
    ).toEqual([400, refusal('参数错误：id')]);
  });

  it('end_others keeps only this one; a plain logout ends its own session', async () => {
    const u = await t.register();
    const a = await login(u);
    const b = await login(u);
    expect(
      (await t.post(`${ACC}/sessions/end_others`, {}, u.token)).json(),
    ).toEqual({ ok: true, data: { ended: 2 } });
    for (const tok of [a, b])
      expect((await t.get(`${A}/me`, tok)).statusCode).toBe(401);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    const c = await login(u);
    await t.post(`${A}/logout`, {}, c);
    expect((await sessionsOf(u.token)).map((s) => s.id)).toEqual([
      jwtClaims(u.token).sid,
    ]);
  });

  it('last used is written at most once a minute, not per request', async () => {
    let now = Date.now();
    const clocked = await createTestApp({}, { now: () => now });
    try {
      const u = await clocked.register();
      const first = (await clocked.get(`${ACC}/sessions`, u.token)).json().data
        .sessions[0].last_used_at;
      now += 30_000;
      await clocked.get(`${A}/me`, u.token);
      expect(
        (await clocked.get(`${ACC}/sessions`, u.token)).json().data.sessions[0]
          .last_used_at,
      ).toBe(first);
      now += 31_000;
      await clocked.get(`${A}/me`, u.token);
      await waitFor(
        'last used to move',
        5000,
        async () =>
          (await clocked.get(`${ACC}/sessions`, u.token)).json().data
            .sessions[0].last_used_at === Math.floor(now / 1000),
      );
    } finally {
      await clocked.close();
    }
  });

  it('a token from before sessions (no sid) keeps working; refreshing it starts a session', async () => {
    const u = await t.register();
    const now = Date.now();
    const legacy = await new SignJWT({
      sub: u.username,
      uid: u.uid,
      roles: ['player'],
      app: 'account-center',
      iat: Math.floor(now / 1000),
      exp: Math.floor(now / 1000) + 600,
      jti: `${(now - 1).toString(36)}.legacy`,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(Buffer.from(TEST_SECRET));
    expect((await t.get(`${A}/me`, legacy)).statusCode).toBe(200);
    expect((await sessionsOf(legacy)).some((s) => s.current)).toBe(false);
    const refreshed = (await t.post(`${A}/refresh`, {}, legacy)).json()
      .access_token as string;
    expect(jwtClaims(refreshed).sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await sessionsOf(refreshed)).find((s) => s.current)?.id).toBe(
      jwtClaims(refreshed).sid,
    );
    // It belongs to no session, but the cut-off of a logout-all still ends it.
    await t.post(`${A}/logout`, { all: true }, refreshed);
    expect((await t.get(`${A}/me`, legacy)).statusCode).toBe(401);
  });

  it('needs a first-party token', async () => {
    const u = await t.register();
    const game = (await t.post(`${A}/game_token`, {}, u.token)).json()
      .access_token as string;
    expect(failure(await t.get(`${ACC}/sessions`, game))).toEqual([
      403,
      refusal('该令牌无权访问此接口'),
    ]);
    expect((await t.get(`${ACC}/sessions`)).statusCode).toBe(401);
  });
});

describe('profile and password', () => {
  it('renames; bad names are 400', async () => {
    const u = await t.register();
    const res = await t.post(
      `${ACC}/profile`,
      { display_name: '  小明  ' },
      u.token,
    );
    expect(res.json()).toEqual({
      ok: true,
      data: {
        uid: u.uid,
        username: u.username,
        display_name: '小明',
        email: u.email,
        roles: ['player'],
      },
    });
    expect((await t.get(`${A}/me`, u.token)).json().data.display_name).toBe(
      '小明',
    );
    expect(
      failure(await t.post(`${ACC}/profile`, { display_name: '   ' }, u.token)),
    ).toEqual([400, refusal('参数错误：display_name')]);
    expect(
      failure(
        await t.post(
          `${ACC}/profile`,
          { display_name: 'x'.repeat(65) },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：display_name')]);
    expect(
      failure(
        await t.post(`${ACC}/profile`, 'x', u.token, {
          'content-type': 'text/plain',
        }),
      ),
    ).toEqual([415, refusal('请求体必须是 JSON')]);
  });

  it('change password: needs the current one, ends every other session, keeps this one with a fresh token, audits', async () => {
    const u = await t.register();
    const other = await login(u);
    expect(
      failure(
        await t.post(
          `${ACC}/password`,
          {
            current_password: 'wrong wrong',
            new_password: 'brand new password',
          },
          u.token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      failure(
        await t.post(
          `${ACC}/password`,
          { current_password: u.password, new_password: 'short' },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('密码长度需为 8 到 128 个字符')]);
    const res = await t.post(
      `${ACC}/password`,
      { current_password: u.password, new_password: 'brand new password' },
      u.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = res.json().access_token as string;
    expect(jwtClaims(fresh).sid).toBe(jwtClaims(u.token).sid);
    expect((await t.get(`${A}/me`, other)).statusCode).toBe(401);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(401);
    expect((await t.get(`${A}/me`, fresh)).statusCode).toBe(200);
    expect((await sessionsOf(fresh)).map((s) => s.id)).toEqual([
      jwtClaims(fresh).sid,
    ]);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'brand new password',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.runtime.storage.audit.list(
          { action: 'user.password_change', target: u.username },
          0,
          5,
        )
      ).total,
    ).toBe(1);
  });

  it('change password with end_other_sessions false leaves the others signed in', async () => {
    const u = await t.register();
    const other = await login(u);
    const res = await t.post(
      `${ACC}/password`,
      {
        current_password: u.password,
        new_password: 'brand new password',
        end_other_sessions: false,
      },
      u.token,
    );
    expect(res.statusCode).toBe(200);
    expect((await t.get(`${A}/me`, other)).statusCode).toBe(200);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
  });
});

describe('change e-mail', () => {
  it('a code to the new address confirms it; the old address gets a notice; email_verified follows', async () => {
    const u = await t.register();
    const next = `${uniqueName('new')}@Example.org`;
    const sent = await t.post(
      `${ACC}/email/send_code`,
      { email: next, current_password: u.password },
      u.token,
    );
    expect(sent.json()).toEqual({
      ok: true,
      data: { expires_in: 600, resend_after: 60 },
    });
    const code = await t.smtp.codeFor(next);
    // The code works only here: neither login_by_code nor send_code know the purpose.
    expect(
      failure(
        await t.post(`${A}/send_code`, {
          email: next,
          purpose: 'change_email',
        }),
      ),
    ).toEqual([400, refusal('参数错误：purpose')]);
    const before = t.smtp.countTo(u.email);
    const res = await t.post(`${ACC}/email`, { email: next, code }, u.token);
    expect(res.json()).toEqual({
      ok: true,
      data: { email: next, email_verified: true },
    });
    await waitFor(
      'the notice to the old address',
      5000,
      () => t.smtp.countTo(u.email) > before,
    );
    const me = (await t.get(`${A}/me`, u.token)).json().data;
    expect(me).toMatchObject({ email: next, email_verified: true });
    expect(
      (
        await t.post(`${A}/login`, {
          username: next.toUpperCase(),
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    // The change used up the grant of the send: nothing more happens without a new proof.
    expect(
      failure(await t.post(`${ACC}/email`, { email: next, code }, u.token)),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (
        await t.runtime.storage.audit.list(
          { action: 'user.email_change', target: u.username },
          0,
          5,
        )
      ).total,
    ).toBe(1);
  });

  it('refuses a taken, the same, a malformed address, and a wrong code', async () => {
    const u = await t.register();
    const v = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: v.email.toUpperCase(), current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([409, refusal('邮箱已被注册')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: u.email.toUpperCase(), current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('新邮箱与当前邮箱相同')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: 'nope', current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('邮箱格式不正确')]);
    const next = `${uniqueName('n')}@example.org`;
    await t.post(
      `${ACC}/email/send_code`,
      { email: next, current_password: u.password },
      u.token,
    );
    const code = await t.smtp.codeFor(next);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(
      failure(
        await t.post(`${ACC}/email`, { email: next, code: wrong }, u.token),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: next, current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([429, refusal('请求过于频繁，请稍后再试')]);
  });
});

describe('delete account', () => {
  it('needs the password; frees the username and e-mail; ends every token; disables its apps; audit row names only the id', async () => {
    const u = await t.register();
    const app = await t.post(
      `${A}/apps`,
      { display_name: 'Mine', redirect_uris: ['https://mine.example/cb'] },
      u.token,
    );
    expect(app.statusCode).toBe(200);
    const clientId = app.json().data.client_id as string;
    const other = await login(u);
    expect(
      failure(
        await t.post(`${ACC}/delete`, { password: 'wrong password' }, u.token),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (await t.post(`${ACC}/delete`, { password: u.password }, u.token)).json(),
    ).toEqual({ ok: true, data: {} });
    for (const tok of [u.token, other])
      expect((await t.get(`${A}/me`, tok)).statusCode).not.toBe(200);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.runtime.storage.apps.findById(clientId))?.status).toBe(
      'disabled',
    );
    const again = await t.register({ username: u.username, email: u.email });
    expect(again.uid).not.toBe(u.uid);
    const row = (
      await t.runtime.storage.audit.list({ action: 'user.delete' }, 0, 50)
    ).entries.find((e) => e.target === `uid:${u.uid}`);
    expect(row).toMatchObject({ actor: `uid:${u.uid}`, ip: null, detail: {} });
    expect(JSON.stringify(row)).not.toContain(u.username);
    expect(
      await t.runtime.storage.sessions.listLive(u.uid, Date.now(), 10),
    ).toEqual([]);
    expect(
      await t.runtime.storage.sessions.findById(jwtClaims(other).sid),
    ).toBeUndefined();
  });
});

describe('contract', () => {
  it('every new endpoint is in the OpenAPI document at /docs; bodies over 64 KiB get 413', async () => {
    const doc = (await t.get('/docs/json')).json();
    for (const path of [
      'profile',
      'password',
      'email/send_code',
      'email',
      'sessions',
      'sessions/end',
      'sessions/end_others',
      'app_suspensions',
      'delete',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(`${ACC}/${path}`);
    }
    for (const path of [
      'users/detail',
      'users/sessions/end',
      'users/force_reset',
      'apps',
      'apps/detail',
      'apps/status',
      'audit',
      'audit/export',
      'dashboard',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(`${A}/admin/${path}`);
    }
    const u = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/profile`,
          { display_name: 'x'.repeat(70_000) },
          u.token,
        ),
      ),
    ).toEqual([413, refusal('请求体过大')]);
  });
});
