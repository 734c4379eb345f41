import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('smoke', () => {
  it('registers, signs in and answers me', async () => {
    const u = await t.register();
    const me = await t.get('/api/v1/auth/me', u.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      ok: true,
      data: {
        uid: u.uid,
        username: u.username,
        display_name: u.username,
        email: u.email,
        email_verified: false,
        roles: ['player'],
        app: 'account-center',
        exp: expect.any(Number),
      },
    });
    const login = await t.post('/api/v1/auth/login', {
      username: u.username,
      password: u.password,
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    expect(Object.keys(login.json()).sort()).toEqual([
      'access_token',
      'expires_in',
      'ok',
      'token_type',
      'user',
    ]);
  });

  it('general failures', async () => {
    expect((await t.get('/nope')).json()).toEqual({
      ok: false,
      msg: '接口不存在',
    });
    const r415 = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: 'a=b',
      headers: { 'content-type': 'text/plain' },
    });
    expect([r415.statusCode, r415.json().msg]).toEqual([
      415,
      '请求体必须是 JSON',
    ]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: '{x',
      headers: { 'content-type': 'application/json' },
    });
    expect([bad.statusCode, bad.json().msg]).toEqual([
      400,
      '请求体不是合法的 JSON',
    ]);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: JSON.stringify({ username: 'x'.repeat(70000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect([big.statusCode, big.json().msg]).toEqual([413, '请求体过大']);
    const wrongType = await t.post('/api/v1/auth/login', {
      username: 5,
      password: 'x',
    });
    expect([wrongType.statusCode, wrongType.json().msg]).toEqual([
      400,
      '参数错误：username',
    ]);
    const missing = await t.post('/api/v1/auth/login', { username: 'abc' });
    expect([missing.statusCode, missing.json().msg]).toEqual([
      400,
      '参数错误：password',
    ]);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
    });
    expect([empty.statusCode, empty.json()]).toEqual([
      200,
      { ok: true, data: {} },
    ]);
  });
});
