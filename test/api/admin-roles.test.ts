import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

/** What the console's role picker and user page read (docs/account.md, administration). */
const A = '/api/v1/auth';
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
});

describe('GET admin/roles', () => {
  it('lists player and admin first, then every role some user holds, with member counts', async () => {
    const builder = await t.register();
    expect(
      (
        await t.post(
          `${A}/admin/users/roles`,
          {
            username: builder.username,
            roles: ['player', 'builder', 'a-team'],
          },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    const res = await t.get(`${A}/admin/roles`, admin.token);
    expect(res.statusCode).toBe(200);
    const roles = res.json().data.roles as Array<{
      name: string;
      members: number;
      builtin: boolean;
    }>;
    expect(roles.map((r) => r.name)).toEqual([
      'player',
      'admin',
      'a-team',
      'builder',
    ]);
    expect(roles[0]).toEqual({
      name: 'player',
      display_name: '玩家',
      display_name_en: 'Player',
      description: '',
      members: 2,
      builtin: true,
    });
    expect(roles[1]).toMatchObject({
      name: 'admin',
      members: 1,
      builtin: true,
    });
    expect(roles[3]).toEqual({
      name: 'builder',
      display_name: 'builder',
      display_name_en: 'builder',
      description: '',
      members: 1,
      builtin: false,
    });
  });

  it('is for administrators only', async () => {
    const u = await t.register();
    expect(failure(await t.get(`${A}/admin/roles`, u.token))).toEqual([
      403,
      refusal('需要管理员权限'),
    ]);
  });
});

describe('GET admin/users/detail', () => {
  it('says whether the user has a second factor to remove', async () => {
    const u = await t.register();
    const detail = async () =>
      (
        await t.get(
          `${A}/admin/users/detail?username=${u.username}`,
          admin.token,
        )
      ).json().data.user.second_factor;
    expect(await detail()).toEqual({ totp: false, passkeys: 0 });
    const { secret } = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    // Set up but not confirmed: nothing that asks for a code yet.
    expect(await detail()).toEqual({ totp: false, passkeys: 0 });
    expect(
      (
        await t.post(
          `${A}/account/totp/enable`,
          { code: await generate({ secret }) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await detail()).toEqual({ totp: true, passkeys: 0 });
    expect(
      (
        await t.post(
          `${A}/admin/users/second_factor/remove`,
          { username: u.username },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await detail()).toEqual({ totp: false, passkeys: 0 });
  });
});
