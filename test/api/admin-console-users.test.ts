import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { jwtClaims } from '../helpers/jwt.js';

const A = '/api/v1/auth';
const ADM = `${A}/admin`;
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

describe('admin: user detail', () => {
  it('shows profile, sessions, apps and audit trail; ends one session (its token gets 401)', async () => {
    const u = await t.register();
    const app = await createApp(t, u);
    const other = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token as string;
    const res = await t.get(
      `${ADM}/users/detail?username=${u.username.toUpperCase()}`,
      admin.token,
    );
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.user).toMatchObject({
      uid: u.uid,
      username: u.username,
      banned: false,
      roles: ['player'],
    });
    expect(d.sessions.map((s: { id: string }) => s.id).sort()).toEqual(
      [jwtClaims(u.token).sid, jwtClaims(other).sid].sort(),
    );
    expect(d.apps.map((a: { client_id: string }) => a.client_id)).toEqual([
      app.client_id,
    ]);
    expect(d.audit.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['user.register', 'login.success', 'app.create']),
    );
    expect(
      (
        await t.post(
          `${ADM}/users/sessions/end`,
          { username: u.username, id: jwtClaims(other).sid },
          admin.token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect((await t.get(`${A}/me`, other)).statusCode).toBe(401);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    expect(
      failure(
        await t.get(`${ADM}/users/detail?username=nobody_here`, admin.token),
      ),
    ).toEqual([404, refusal('用户不存在')]);
    expect(
      failure(
        await t.get(`${ADM}/users/detail?username=${u.username}`, u.token),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
  });

  it('force password reset ends every session and mails a reset code that works', async () => {
    const u = await t.register();
    const before = t.smtp.countTo(u.email);
    expect(
      (
        await t.post(
          `${ADM}/users/force_reset`,
          { username: u.username },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(401);
    const code = await t.smtp.nextCodeFor(u.email, before);
    expect(
      (
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code,
          new_password: 'after the reset',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'after the reset',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.runtime.storage.audit.list(
          { action: 'user.force_reset', target: u.username },
          0,
          5,
        )
      ).entries[0]?.actor,
    ).toBe(admin.username);
  });
});
