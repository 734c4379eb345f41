import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';
import { SERVER_SECRET } from '../helpers/server.js';

/**
 * No administrator bans, demotes or deletes themselves, and the last administrator keeps
 * `admin` (docs/api.md §8.1): the center is never left without someone who can run it.
 */
const A = '/api/v1/auth';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rolesOf = async (token: string) =>
  (await t.get(`${A}/me`, token)).json().data.roles as string[];

describe('an administrator acting on their own account', () => {
  it('cannot ban themselves, and stays able to administer', async () => {
    const admin = await t.admin();
    const res = await t.post(
      `${A}/admin/users/ban`,
      { username: admin.username, banned: true, reason: 'oops' },
      admin.token,
    );
    expect(failure(res)).toEqual([403, refusal('不能封禁自己的账号')]);
    expect((await t.get(`${A}/me`, admin.token)).statusCode).toBe(200);
    expect((await t.get(`${A}/admin/users`, admin.token)).statusCode).toBe(200);
  });

  it('cannot remove admin from themselves, however the name is spelled', async () => {
    const admin = await t.admin();
    for (const username of [admin.username, admin.username.toUpperCase()]) {
      const res = await t.post(
        `${A}/admin/users/roles`,
        { username, roles: ['player'] },
        admin.token,
      );
      expect(failure(res)).toEqual([403, refusal('不能移除自己的管理员角色')]);
    }
    expect(await rolesOf(admin.token)).toEqual(['player', 'admin']);
    // Other changes to their own roles stay allowed.
    const kept = await t.post(
      `${A}/admin/users/roles`,
      { username: admin.username, roles: ['admin', 'builder'] },
      admin.token,
    );
    expect(kept.statusCode).toBe(200);
    expect(await rolesOf(admin.token)).toEqual(['admin', 'builder']);
  });

  it('cannot delete their own account', async () => {
    const admin = await t.admin();
    const res = await t.post(
      `${A}/account/delete`,
      { current_password: admin.password },
      admin.token,
    );
    expect(failure(res)).toEqual([
      403,
      refusal('管理员不能注销自己的账号，请先由其他管理员移除管理员角色'),
    ]);
    expect(await rolesOf(admin.token)).toEqual(['player', 'admin']);
  });

  it('may still ban and demote another administrator', async () => {
    const [one, two] = [await t.admin(), await t.admin()];
    expect(
      (
        await t.post(
          `${A}/admin/users/roles`,
          { username: two.username, roles: ['player'] },
          one.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          `${A}/admin/users/ban`,
          { username: two.username, banned: true },
          one.token,
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('the last administrator', () => {
  it('keeps admin when two administrators demote each other at once', async () => {
    const own = await createTestApp();
    try {
      const one = await own.admin();
      const two = await own.admin();
      const [a, b] = await Promise.all([
        own.post(
          `${A}/admin/users/roles`,
          { username: two.username, roles: ['player'] },
          one.token,
        ),
        own.post(
          `${A}/admin/users/roles`,
          { username: one.username, roles: ['player'] },
          two.token,
        ),
      ]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses[0]).toBe(200);
      // The loser is either no longer an admin when its request is checked, or the last one left.
      expect([403, 409]).toContain(statuses[1]);
      const loser = a.statusCode === 200 ? b : a;
      expect([
        refusal('需要管理员权限'),
        refusal('至少需要保留一名管理员'),
      ]).toContainEqual(loser.json());
      const left = await own.runtime.storage.users.search('admin_', 0, 100);
      expect(left.users.filter((u) => u.roles.includes('admin'))).toHaveLength(
        1,
      );
    } finally {
      await own.close();
    }
  });
});

describe('account-center user roles', () => {
  const ws = cliWorkspace('ac-admin-self-');
  afterAll(async () => {
    await ws.dispose();
  });

  it('refuses to take admin from the last administrator, and allows it once there is another', async () => {
    const db = await ws.freshDatabase('last-admin');
    const create = (username: string, roles: string) =>
      ws.cli(db, [
        'user',
        'create',
        '--username',
        username,
        '--password',
        'correct horse battery',
        '--email',
        `${username}@example.com`,
        '--roles',
        roles,
      ]);
    expect((await create('chief', 'player,admin')).code).toBe(0);
    expect((await create('member', 'player')).code).toBe(0);
    // A role change of someone who is not an administrator is not affected.
    expect(
      (await ws.cli(db, ['user', 'roles', 'member', 'player,builder'])).code,
    ).toBe(0);

    const refused = await ws.cli(db, ['user', 'roles', 'chief', 'player']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'account-center: this is the last administrator: give another account the admin role first',
    );
    const service = await createTestApp({
      DATABASE_URL: db,
      JWT_SECRET: SERVER_SECRET,
    });
    try {
      expect(
        (await service.runtime.storage.users.findByUsername('chief'))?.roles,
      ).toEqual(['player', 'admin']);
    } finally {
      await service.close();
    }

    expect(
      (await ws.cli(db, ['user', 'roles', 'member', 'player,admin'])).code,
    ).toBe(0);
    expect((await ws.cli(db, ['user', 'roles', 'chief', 'player'])).code).toBe(
      0,
    );
  }, 120_000);
});
