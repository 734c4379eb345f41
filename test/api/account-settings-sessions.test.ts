import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import {
  createTestApp,
  failure,
  refusal,
  TEST_SECRET,
  type TestApp,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { jwtClaims } from '../helpers/jwt.js';
import { accountSessions } from './account-settings-setup.js';

const A = '/api/v1/auth';
const ACC = `${A}/account`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const { login, sessionsOf } = accountSessions(() => t);

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
