import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** Runs on SQLite and on PostgreSQL: each test reproduces one attack through the public interface. */
const AUTH = '/api/v1/auth';
const clock = Date.now();
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  owner = await t.register();
});
afterAll(async () => {
  await t.close();
});

describe('NUL bytes are a 400 field error before any database (docs/api.md §1)', () => {
  const NUL = 'a\u0000b';
  it.each([
    [
      'login',
      { username: NUL, password: 'whatever password' },
      '参数错误：username',
    ],
    [
      'register',
      {
        username: 'nul_user',
        password: 'correct horse battery',
        email: 'nul@example.com',
        display_name: NUL,
      },
      '参数错误：display_name',
    ],
    [
      'send_code',
      { email: 'x@example.com', purpose: NUL },
      '参数错误：purpose',
    ],
    [
      'reset_password',
      {
        email: 'x@example.com',
        code: NUL,
        new_password: 'correct horse battery',
      },
      '参数错误：code',
    ],
    [
      'client_info',
      { client_id: NUL, redirect_uri: 'https://a.example.com/cb' },
      '参数错误：client_id',
    ],
    [
      'exchange',
      { client_id: NUL, client_secret: 'x', code: 'y' },
      '参数错误：client_id',
    ],
    ['device/start', { client_id: NUL }, '参数错误：client_id'],
    ['device/poll', { device_code: NUL }, '参数错误：device_code'],
    // A field with its own format row (docs/api.md §2) gets that row, as any other malformed value does.
    [
      'register',
      {
        username: NUL,
        password: 'correct horse battery',
        email: 'nul@example.com',
      },
      '用户名格式不正确',
    ],
    [
      'register',
      {
        username: 'nul_user',
        password: 'correct horse battery',
        email: `x${NUL}@example.com`,
      },
      '邮箱格式不正确',
    ],
    [
      'send_code',
      { email: `x${NUL}@example.com`, purpose: 'login' },
      '邮箱格式不正确',
    ],
    [
      'login_by_code',
      { email: `x${NUL}@example.com`, code: '123456' },
      '邮箱格式不正确',
    ],
    [
      'reset_password',
      {
        email: `x${NUL}@example.com`,
        code: '123456',
        new_password: 'correct horse battery',
      },
      '邮箱格式不正确',
    ],
  ])('%s: %j', async (path, body, msg) => {
    const res = await t.post(`${AUTH}/${path}`, body);
    expect([res.statusCode, res.json()]).toEqual([400, { ok: false, msg }]);
  });

  it('a NUL byte gets exactly the answer of any other malformed value of a field with its own format row', async () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      [
        'register',
        { password: 'correct horse battery', email: 'nul2@example.com' },
        'username',
        'bad name!',
      ],
      [
        'register',
        { username: 'nul_user2', password: 'correct horse battery' },
        'email',
        'not-an-address',
      ],
      ['send_code', { purpose: 'login' }, 'email', 'not-an-address'],
      ['login_by_code', { code: '123456' }, 'email', 'not-an-address'],
      [
        'reset_password',
        { code: '123456', new_password: 'correct horse battery' },
        'email',
        'not-an-address',
      ],
    ];
    for (const [path, rest, field, malformed] of cases) {
      const other = await t.post(`${AUTH}/${path}`, {
        ...rest,
        [field]: malformed,
      });
      const nul = await t.post(`${AUTH}/${path}`, {
        ...rest,
        [field]: `ab${NUL}cd`,
      });
      expect([nul.statusCode, nul.json()], `${path} ${field}`).toEqual([
        other.statusCode,
        other.json(),
      ]);
    }
  });

  it('in Bearer routes, nested values and query strings too', async () => {
    const admin = await t.admin();
    const cases: Array<
      [Promise<{ statusCode: number; json(): unknown }>, string]
    > = [
      [
        t.post(
          `${AUTH}/authorize`,
          { client_id: NUL, redirect_uri: 'https://a.example.com/cb' },
          owner.token,
        ),
        'client_id',
      ],
      [
        t.post(`${AUTH}/apps/update`, { client_id: NUL }, owner.token),
        'client_id',
      ],
      [
        t.post(`${AUTH}/apps/rotate_secret`, { client_id: NUL }, owner.token),
        'client_id',
      ],
      [
        t.post(`${AUTH}/apps/disable`, { client_id: NUL }, owner.token),
        'client_id',
      ],
      [
        t.post(
          `${AUTH}/apps`,
          {
            display_name: 'x',
            redirect_uris: [`https://a.example.com/${NUL}`],
          },
          owner.token,
        ),
        'redirect_uris',
      ],
      [
        t.post(`${AUTH}/device/approve`, { user_code: NUL }, owner.token),
        'user_code',
      ],
      [
        t.post(
          `${AUTH}/admin/users/ban`,
          { username: NUL, banned: true },
          admin.token,
        ),
        'username',
      ],
      [
        t.get(`${AUTH}/admin/users?q=${encodeURIComponent(NUL)}`, admin.token),
        'q',
      ],
      [
        t.get(
          `${AUTH}/client_info?client_id=${encodeURIComponent(NUL)}&redirect_uri=x`,
        ),
        'client_id',
      ],
      // Routes that validate nothing judge the query before the token, with or without one.
      [t.get(`${AUTH}/me?x=${encodeURIComponent(NUL)}`), 'x'],
      [t.get(`${AUTH}/me?x=${encodeURIComponent(NUL)}`, owner.token), 'x'],
      [t.post(`${AUTH}/refresh?y=${encodeURIComponent(NUL)}`, {}), 'y'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { ok: false, msg: `参数错误：${field}` },
      ]);
    }
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${AUTH}/exchange?client_id=${encodeURIComponent(NUL)}`,
      headers: {
        origin: 'https://a.example.com',
        'access-control-request-method': 'POST',
      },
    });
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
    expect(preflight.statusCode).toBeLessThan(500);
    // logout reads no body: it still answers 200 (docs/api.md §3).
    expect((await t.post(`${AUTH}/logout`, { all: NUL })).statusCode).toBe(200);
  });
});
