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

describe('request bodies (docs/api.md §1)', () => {
  it('rejects non-JSON bodies with 415', async () => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: 'username=a&password=b',
        headers: { 'content-type': contentType },
      });
      expect(failure(res), contentType).toEqual([
        415,
        { ok: false, msg: '请求体必须是 JSON' },
      ]);
    }
  });

  it('rejects a body without a content type with 415', async () => {
    // light-my-request sets no content-type for string and Buffer payloads.
    for (const payload of [
      '{"username":"a","password":"b"}',
      Buffer.from('{"username":"a","password":"b"}'),
    ]) {
      const res = await t.app.inject({ method: 'POST', url: LOGIN, payload });
      expect(failure(res)).toEqual([
        415,
        { ok: false, msg: '请求体必须是 JSON' },
      ]);
    }
  });

  it('accepts application/json with a charset', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: JSON.stringify({
        username: 'nobody_here',
        password: 'whatever1',
      }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(failure(res)).toEqual([401, { ok: false, msg: '用户名或密码错误' }]);
  });

  it('answers malformed JSON with 400', async () => {
    for (const payload of [
      '{x',
      '{"username":',
      '[1,',
      'undefined',
      "{'a':1}",
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(failure(res), payload).toEqual([
        400,
        { ok: false, msg: '请求体不是合法的 JSON' },
      ]);
    }
  });

  it('answers a body over 64 KiB with 413 and accepts one just under', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: JSON.stringify({
        username: 'x'.repeat(64 * 1024),
        password: 'p',
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(failure(big)).toEqual([413, { ok: false, msg: '请求体过大' }]);
    const fits = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload: JSON.stringify({
        username: 'x'.repeat(60 * 1024),
        password: 'password1',
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(fits.statusCode).toBe(401);
  });

  it('names the field of a wrong-typed or missing value', async () => {
    const cases: Array<[unknown, string]> = [
      [{ username: 5, password: 'password1' }, 'username'],
      [{ username: 'abc', password: null }, 'password'],
      [{ username: ['abc'], password: 'password1' }, 'username'],
      [{ password: 'password1' }, 'username'],
      [{ username: 'abc' }, 'password'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(LOGIN, body);
      expect(failure(res), JSON.stringify(body)).toEqual([
        400,
        { ok: false, msg: `参数错误：${field}` },
      ]);
    }
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().msg, payload).toMatch(/^参数错误/);
    }
  });

  it('reads a POST without a body as {}', async () => {
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
    });
    expect(failure(logout)).toEqual([200, { ok: true, data: {} }]);
    const u = await t.register();
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(refresh.statusCode).toBe(200);
    const emptyJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: '',
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': 'application/json',
      },
    });
    expect(emptyJson.statusCode).toBe(200);
    // A login without a body is a missing field, not a crash.
    const login = await t.app.inject({ method: 'POST', url: LOGIN });
    expect(failure(login)).toEqual([
      400,
      { ok: false, msg: '参数错误：username' },
    ]);
  });

  it('drops __proto__ keys instead of polluting objects', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      payload:
        '{"username":"abc","password":"password1","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    // Had the key become the body's prototype, display_name would be read through it.
    const username = uniqueName();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"${username}","password":"password123","email":"${username}@example.com","__proto__":{"display_name":"Injected"},"constructor":{"prototype":{"display_name":"Injected"}}}`,
    });
    expect(reg.statusCode).toBe(200);
    expect(reg.json().user.display_name).toBe(username);
  });
});
