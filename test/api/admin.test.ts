import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failure,
  refusal as fail,
  createTestApp,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
});

const A = '/api/v1/auth/admin';

describe('admin access', () => {
  it('refuses non-admins, anonymous callers and third-party tokens', async () => {
    const u = await t.register();
    const calls = [
      () => t.get(`${A}/users`, u.token),
      () =>
        t.post(
          `${A}/users/ban`,
          { username: u.username, banned: true },
          u.token,
        ),
      () =>
        t.post(
          `${A}/users/roles`,
          { username: u.username, roles: ['admin'] },
          u.token,
        ),
    ];
    for (const call of calls)
      expect(failure(await call())).toEqual([403, fail('需要管理员权限')]);
    expect(failure(await t.get(`${A}/users`))).toEqual([
      401,
      fail('令牌无效或已过期'),
    ]);
    expect(
      failure(
        await t.post(`${A}/users/ban`, { username: u.username, banned: true }),
      ),
    ).toEqual([401, fail('令牌无效或已过期')]);
    // The user was not changed by any of these.
    expect((await t.get('/api/v1/auth/me', u.token)).json().data.roles).toEqual(
      ['player'],
    );
  });

  it('takes a role change effect at once on the next request', async () => {
    const u = await t.register();
    expect((await t.get(`${A}/users`, u.token)).statusCode).toBe(403);
    expect(
      (
        await t.post(
          `${A}/users/roles`,
          { username: u.username, roles: ['player', 'admin'] },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    // Authorisation follows the stored roles, not the claims of the older token.
    expect((await t.get(`${A}/users`, u.token)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          `${A}/users/roles`,
          { username: u.username, roles: ['player'] },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(failure(await t.get(`${A}/users`, u.token))).toEqual([
      403,
      fail('需要管理员权限'),
    ]);
  });
});

describe('GET admin/users', () => {
  it('searches by username or e-mail, ignoring case, 20 a page', async () => {
    const tag = uniqueName('srch').toLowerCase();
    const made: TestUser[] = [];
    for (let i = 0; i < 23; i++)
      made.push(
        await t.register({
          username: `${tag}_${i}`,
          email: `m${i}_${tag}@example.org`,
        }),
      );
    const page1 = await t.get(`${A}/users?q=${tag.toUpperCase()}`, admin.token);
    expect(page1.statusCode).toBe(200);
    const b1 = page1.json();
    expect(Object.keys(b1.data).sort()).toEqual(['total', 'users']);
    expect(b1.data.total).toBe(23);
    expect(b1.data.users).toHaveLength(20);
    expect(b1.data.users[0]).toEqual({
      uid: made[0]!.uid,
      username: made[0]!.username,
      display_name: made[0]!.username,
      email: made[0]!.email,
      email_verified: false,
      roles: ['player'],
      banned: false,
    });
    const page2 = (
      await t.get(`${A}/users?q=${tag}&page=2`, admin.token)
    ).json().data;
    expect(page2.total).toBe(23);
    expect(page2.users.map((x: { username: string }) => x.username)).toEqual(
      made.slice(20).map((m) => m.username),
    );
    const page9 = (
      await t.get(`${A}/users?q=${tag}&page=9`, admin.token)
    ).json().data;
    expect(page9).toEqual({ users: [], total: 23 });
    const byMail = (
      await t.get(
        `${A}/users?q=${encodeURIComponent(`m7_${tag}@EXAMPLE.org`)}`,
        admin.token,
      )
    ).json().data;
    expect(byMail.users.map((x: { username: string }) => x.username)).toEqual([
      `${tag}_7`,
    ]);
    const all = (await t.get(`${A}/users`, admin.token)).json().data;
    expect(all.total).toBeGreaterThanOrEqual(24);
  });

  it('treats LIKE wildcards in q literally', async () => {
    const none = (
      await t.get(`${A}/users?q=${encodeURIComponent('%')}`, admin.token)
    ).json().data;
    expect(none).toEqual({ users: [], total: 0 });
    const underscore = (await t.get(`${A}/users?q=_`, admin.token)).json().data;
    expect(underscore.total).toBeGreaterThan(0);
    for (const u of underscore.users)
      expect(`${u.username}${u.email}`).toContain('_');
  });

  it('refuses a bad page number', async () => {
    for (const page of ['0', '-1', 'x', '1.5', '99999999999']) {
      expect(
        failure(await t.get(`${A}/users?page=${page}`, admin.token)),
        page,
      ).toEqual([400, fail('参数错误：page')]);
    }
    expect(
      failure(await t.get(`${A}/users?q=${'a'.repeat(300)}`, admin.token)),
    ).toEqual([400, fail('参数错误：q')]);
  });
});

describe('POST admin/users/ban', () => {
  it('bans and unbans; a ban takes effect at me at once', async () => {
    const u = await t.register();
    const ban = await t.post(
      `${A}/users/ban`,
      { username: u.username.toUpperCase(), banned: true },
      admin.token,
    );
    expect(ban.statusCode).toBe(200);
    expect(ban.json()).toEqual({
      ok: true,
      data: {
        uid: u.uid,
        username: u.username,
        display_name: u.username,
        email: u.email,
        email_verified: false,
        roles: ['player'],
        banned: true,
      },
    });
    expect(failure(await t.get('/api/v1/auth/me', u.token))).toEqual([
      403,
      fail('账号已被封禁'),
    ]);
    const listed = (
      await t.get(`${A}/users?q=${u.username}`, admin.token)
    ).json().data.users[0];
    expect(listed.banned).toBe(true);
    const unban = await t.post(
      `${A}/users/ban`,
      { username: u.username, banned: false },
      admin.token,
    );
    expect(unban.json().data.banned).toBe(false);
    expect((await t.get('/api/v1/auth/me', u.token)).statusCode).toBe(200);
  });

  it('validates the body and the target', async () => {
    expect(
      failure(
        await t.post(
          `${A}/users/ban`,
          { username: 'x_nobody_here', banned: true },
          admin.token,
        ),
      ),
    ).toEqual([404, fail('用户不存在')]);
    expect(
      failure(
        await t.post(
          `${A}/users/ban`,
          { username: 'abc', banned: 'yes' },
          admin.token,
        ),
      ),
    ).toEqual([400, fail('参数错误：banned')]);
    expect(
      failure(await t.post(`${A}/users/ban`, { banned: true }, admin.token)),
    ).toEqual([400, fail('参数错误：username')]);
  });
});

describe('POST admin/users/roles', () => {
  it('replaces roles, shown at me and in new tokens', async () => {
    const u = await t.register();
    const res = await t.post(
      `${A}/users/roles`,
      { username: u.username, roles: ['player', 'builder', 'builder'] },
      admin.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.roles).toEqual(['player', 'builder']);
    expect((await t.get('/api/v1/auth/me', u.token)).json().data.roles).toEqual(
      ['player', 'builder'],
    );
    const login = (
      await t.post('/api/v1/auth/login', {
        username: u.username,
        password: u.password,
      })
    ).json();
    expect(login.user.roles).toEqual(['player', 'builder']);
  });

  it('validates roles', async () => {
    const u = await t.register();
    for (const roles of [
      ['bad role'],
      [''],
      ['Admin'],
      ['a'.repeat(33)],
      'admin',
      [1],
      Array.from({ length: 21 }, (_, i) => `r${i}`),
    ]) {
      expect(
        failure(
          await t.post(
            `${A}/users/roles`,
            { username: u.username, roles },
            admin.token,
          ),
        ),
        JSON.stringify(roles),
      ).toEqual([400, fail('参数错误：roles')]);
    }
    expect(
      failure(
        await t.post(
          `${A}/users/roles`,
          { username: 'x_nobody_here', roles: ['player'] },
          admin.token,
        ),
      ),
    ).toEqual([404, fail('用户不存在')]);
  });
});
