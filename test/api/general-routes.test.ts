import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failure,
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

const LOGIN = '/api/v1/auth/login';

describe('routes and envelopes (docs/api.md §1)', () => {
  it('answers unknown routes with 404 for any method', async () => {
    expect(failure(await t.get('/nope'))).toEqual([
      404,
      { ok: false, msg: '接口不存在' },
    ]);
    expect(failure(await t.get('/api/v1/auth/nope'))).toEqual([
      404,
      { ok: false, msg: '接口不存在' },
    ]);
    expect(failure(await t.post('/api/v1/auth/nope', {}))).toEqual([
      404,
      { ok: false, msg: '接口不存在' },
    ]);
    expect(
      failure(await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/me' })),
    ).toEqual([404, { ok: false, msg: '接口不存在' }]);
    expect(failure(await t.get('/api/v1/auth/login'))).toEqual([
      404,
      { ok: false, msg: '接口不存在' },
    ]);
  });

  it('token envelopes carry exactly the listed keys, no-store, and the five user keys', async () => {
    const username = uniqueName();
    const res = await t.post('/api/v1/auth/register', {
      username,
      password: 'password123',
      email: `${username}@example.com`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'ok',
      'token_type',
      'user',
    ]);
    expect(body).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      expires_in: 604800,
    });
    expect(Object.keys(body.user).sort()).toEqual([
      'display_name',
      'email',
      'roles',
      'uid',
      'username',
    ]);

    for (const [url, token] of [
      ['/api/v1/auth/login', undefined],
      ['/api/v1/auth/refresh', body.access_token],
    ] as const) {
      const r = url.endsWith('login')
        ? await t.post(url, { username, password: 'password123' })
        : await t.post(url, undefined, token);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['cache-control'], url).toBe('no-store');
      expect(Object.keys(r.json()).sort(), url).toEqual([
        'access_token',
        'expires_in',
        'ok',
        'token_type',
        'user',
      ]);
      expect(Object.keys(r.json().user).sort(), url).toEqual([
        'display_name',
        'email',
        'roles',
        'uid',
        'username',
      ]);
    }
    const me = await t.get('/api/v1/auth/me', body.access_token);
    expect(Object.keys(me.json()).sort()).toEqual(['data', 'ok']);
    expect(Object.keys(me.json().data).sort()).toEqual([
      'app',
      'display_name',
      'email',
      'email_verified',
      'exp',
      'roles',
      'uid',
      'username',
    ]);
  });

  it('never leaks internals in failures', async () => {
    const res = await t.post(LOGIN, {
      username: "x' or 1=1 --",
      password: 'password1',
    });
    expect(failure(res)).toEqual([401, { ok: false, msg: '用户名或密码错误' }]);
  });
});

describe('first-party rule (docs/api.md §1)', () => {
  it('refuses a third-party token at admin endpoints and accepts it at me', async () => {
    const admin = await t.admin();
    const user = await t.runtime.storage.users.findById(admin.uid);
    const { token } = await t.runtime.services.tokens.issue(user!, 'some-app');
    const denied = { ok: false, msg: '该令牌无权访问此接口' };
    expect(failure(await t.get('/api/v1/auth/admin/users', token))).toEqual([
      403,
      denied,
    ]);
    expect(
      failure(
        await t.post(
          '/api/v1/auth/admin/users/ban',
          { username: admin.username, banned: true },
          token,
        ),
      ),
    ).toEqual([403, denied]);
    expect(
      failure(
        await t.post(
          '/api/v1/auth/admin/users/roles',
          { username: admin.username, roles: ['player'] },
          token,
        ),
      ),
    ).toEqual([403, denied]);
    const me = await t.get('/api/v1/auth/me', token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      username: admin.username,
      app: 'some-app',
    });
    // The same user with a first-party token is allowed.
    expect(
      (await t.get('/api/v1/auth/admin/users', admin.token)).statusCode,
    ).toBe(200);
  });
});
