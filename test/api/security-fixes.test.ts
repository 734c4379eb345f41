import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

/** Runs on SQLite and on PostgreSQL: each test reproduces one attack through the public interface. */
const AUTH = '/api/v1/auth';
let clock = Date.now();
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  owner = await t.register();
});
afterAll(async () => {
  await t.close();
});

describe('logout {all:true} acts only for a token that me accepts (docs/api.md §3)', () => {
  const meStatus = async (token: string) =>
    (await t.get(`${AUTH}/me`, token)).statusCode;

  it('a revoked token cannot sign the user out everywhere', async () => {
    const u = await t.register();
    const stolen = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: u.password,
      })
    ).json().access_token;
    expect((await t.post(`${AUTH}/logout`, {}, stolen)).statusCode).toBe(200);
    clock += 5;
    const res = await t.post(`${AUTH}/logout`, { all: true }, stolen);
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true, data: {} }]);
    expect(await meStatus(u.token)).toBe(200);
  });

  it('a game token from before a password reset cannot either; a live token still can', async () => {
    const u = await t.register();
    const game = (await t.post(`${AUTH}/game_token`, {}, u.token)).json()
      .access_token;
    await t.post(`${AUTH}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await t.smtp.codeFor(u.email);
    clock += 5;
    expect(
      (
        await t.post(`${AUTH}/reset_password`, {
          email: u.email,
          code,
          new_password: 'a brand new password',
        })
      ).statusCode,
    ).toBe(200);
    clock += 5;
    const fresh = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: 'a brand new password',
      })
    ).json().access_token;
    clock += 5;
    for (let i = 0; i < 3; i++)
      expect(
        (await t.post(`${AUTH}/logout`, { all: true }, game)).statusCode,
      ).toBe(200);
    expect(await meStatus(fresh)).toBe(200);
    const other = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: 'a brand new password',
      })
    ).json().access_token;
    clock += 5;
    expect(
      (await t.post(`${AUTH}/logout`, { all: true }, fresh)).statusCode,
    ).toBe(200);
    expect(await meStatus(other)).toBe(401);
  });
});

describe('a disabled app: its tokens stop at me and refresh (docs/api.md §4.3, §3)', () => {
  it('403 该应用已被停用 at once on this instance; enabling restores them', async () => {
    const created = await t.post(
      `${AUTH}/apps`,
      {
        display_name: 'Soon Off',
        redirect_uris: ['https://off.example.com/cb'],
      },
      owner.token,
    );
    const { client_id, client_secret } = created.json().data;
    const code = (
      await t.post(
        `${AUTH}/authorize`,
        { client_id, redirect_uri: 'https://off.example.com/cb' },
        owner.token,
      )
    ).json().data.code;
    const token = (
      await t.post(`${AUTH}/exchange`, { client_id, client_secret, code })
    ).json().access_token;
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          `${AUTH}/apps/disable`,
          { client_id, enabled: false },
          owner.token,
        )
      ).json().data.status,
    ).toBe('disabled');
    const disabled = { ok: false, msg: '该应用已被停用' };
    const me = await t.get(`${AUTH}/me`, token);
    expect([me.statusCode, me.json()]).toEqual([403, disabled]);
    const refresh = await t.post(`${AUTH}/refresh`, {}, token);
    expect([refresh.statusCode, refresh.json()]).toEqual([403, disabled]);
    // A sign-out-everywhere with it does nothing either.
    await t.post(`${AUTH}/logout`, { all: true }, token);
    expect((await t.get(`${AUTH}/me`, owner.token)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          `${AUTH}/apps/disable`,
          { client_id, enabled: true },
          owner.token,
        )
      ).json().data.status,
    ).toBe('active');
    const again = (
      await t.post(
        `${AUTH}/authorize`,
        { client_id, redirect_uri: 'https://off.example.com/cb' },
        owner.token,
      )
    ).json().data.code;
    const token2 = (
      await t.post(`${AUTH}/exchange`, {
        client_id,
        client_secret,
        code: again,
      })
    ).json().access_token;
    expect((await t.get(`${AUTH}/me`, token2)).statusCode).toBe(200);
    expect((await t.post(`${AUTH}/refresh`, {}, token2)).statusCode).toBe(200);
  });

  it("an app disabled behind this instance's back (another instance) is refused within the cache bound", async () => {
    const created = await t.post(
      `${AUTH}/apps`,
      {
        display_name: 'Elsewhere',
        redirect_uris: ['https://else.example.com/cb'],
      },
      owner.token,
    );
    const { client_id, client_secret } = created.json().data;
    const code = (
      await t.post(
        `${AUTH}/authorize`,
        { client_id, redirect_uri: 'https://else.example.com/cb' },
        owner.token,
      )
    ).json().data.code;
    const token = (
      await t.post(`${AUTH}/exchange`, { client_id, client_secret, code })
    ).json().access_token;
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(200);
    // Written straight to the database, as another instance without a shared bus would.
    await t.runtime.storage.apps.update(
      client_id,
      { status: 'disabled' },
      clock,
    );
    clock += 4001;
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(403);
  });
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

describe('e-mail addresses compare on ASCII case only (docs/api.md §2)', () => {
  it('a KELVIN SIGN look-alike gets no code for kate, and cannot reset her password', async () => {
    const name = uniqueName('kate').toLowerCase();
    const kate = await t.register({
      username: name,
      email: `k${name}@example.com`,
    });
    const lookAlike = `\u212a${name}@example.com`;
    clock += 61_000;
    const sent = await t.post(`${AUTH}/send_code`, {
      email: lookAlike,
      purpose: 'reset_password',
    });
    expect(sent.statusCode).toBe(200);
    await t.mailSent();
    expect(t.smtp.countTo(lookAlike)).toBe(0);
    expect(t.smtp.countTo(kate.email)).toBe(0);
    const reset = await t.post(`${AUTH}/reset_password`, {
      email: lookAlike,
      code: '123456',
      new_password: 'attacker password!',
    });
    expect(reset.statusCode).toBe(400);
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: kate.username,
          password: kate.password,
        })
      ).statusCode,
    ).toBe(200);
    // A login by e-mail with the look-alike does not reach kate either.
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: lookAlike,
          password: kate.password,
        })
      ).statusCode,
    ).toBe(401);
    // The look-alike is a different address: it can hold its own account, apart from kate's.
    const other = await t.post(`${AUTH}/register`, {
      username: uniqueName('kelvin'),
      password: 'another password!',
      email: lookAlike,
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: `k${name}@example.com`,
          password: kate.password,
        })
      ).json().user.username,
    ).toBe(kate.username);
  });

  it('ASCII case is still ignored, and codes go to the address stored on the account', async () => {
    const u = await t.register({ email: `${uniqueName('mixed')}@Example.com` });
    clock += 61_000;
    const typed = u.email.toUpperCase();
    expect(
      (await t.post(`${AUTH}/send_code`, { email: typed, purpose: 'login' }))
        .statusCode,
    ).toBe(200);
    const code = await t.smtp.codeFor(u.email);
    const mail = t.smtp.messages.at(-1)!;
    expect(mail.to).toEqual([u.email.toLowerCase()]);
    // Sent to the stored text (lower-case local part), not to the upper-case one typed.
    expect(mail.raw).toMatch(new RegExp(`^To: ${u.email.split('@')[0]}@`, 'm'));
    expect(
      (await t.post(`${AUTH}/login_by_code`, { email: typed, code }))
        .statusCode,
    ).toBe(200);
  });
});

describe("/docs carries the pages' headers (docs/api.md §11)", () => {
  it.each(['/docs', '/docs/', '/docs/json', '/docs/static/index.html'])(
    '%s',
    async (path) => {
      const res = await t.get(path);
      if (res.statusCode >= 300 && res.statusCode < 400)
        expect(res.headers.location).toBeTruthy();
      expect(res.headers['content-security-policy']).toContain(
        "frame-ancestors 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );
});

describe('device/inspect tells who asks before approval (docs/api.md §11, RFC 8628 §5.4)', () => {
  it('names the app, says whether it is the center itself, and when it started', async () => {
    const u = await t.register();
    const center = (await t.post(`${AUTH}/device/start`, {})).json().data;
    const res = await t.post(
      `${AUTH}/device/inspect`,
      { user_code: center.user_code },
      u.token,
    );
    expect(res.json()).toEqual({
      ok: true,
      data: {
        client_id: 'account-center',
        display_name: '账号中心',
        first_party: true,
        created_at: Math.floor(clock / 1000),
      },
    });
    const created = await t.post(
      `${AUTH}/apps`,
      {
        display_name: '星海启动器',
        redirect_uris: ['com.example.launcher:/cb'],
        client_type: 'public',
      },
      owner.token,
    );
    const clientId = created.json().data.client_id;
    const game = (
      await t.post(`${AUTH}/device/start`, { client_id: clientId })
    ).json().data;
    expect(
      (
        await t.post(
          `${AUTH}/device/inspect`,
          { user_code: game.user_code },
          u.token,
        )
      ).json().data,
    ).toMatchObject({
      client_id: clientId,
      display_name: '星海启动器',
      first_party: false,
    });
    // Inspecting decides nothing: the device still waits for the explicit approval.
    expect(
      (
        await t.post(`${AUTH}/device/poll`, { device_code: game.device_code })
      ).json().error,
    ).toBe('authorization_pending');
    const wrong = await t.post(
      `${AUTH}/device/inspect`,
      { user_code: 'abcdef' },
      u.token,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([
      400,
      { ok: false, msg: '设备码无效或已过期' },
    ]);
    const thirdParty = (await t.post(`${AUTH}/game_token`, {}, u.token)).json()
      .access_token;
    expect(
      (
        await t.post(
          `${AUTH}/device/inspect`,
          { user_code: game.user_code },
          thirdParty,
        )
      ).statusCode,
    ).toBe(403);
  });
});
