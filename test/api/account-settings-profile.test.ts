import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
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
