import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';

/** The role catalogue and apps limited to roles through the v1 API (docs/api.md, roles). */
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

const roles = async () =>
  (await t.get(`${A}/admin/roles`, admin.token)).json().data.roles as Array<{
    name: string;
    display_name: string;
    display_name_en: string;
    description: string;
    members: number;
    builtin: boolean;
  }>;
const giveRoles = (username: string, list: string[]) =>
  t.post(`${A}/admin/users/roles`, { username, roles: list }, admin.token);

describe('the role catalogue', () => {
  it('adds a role with display names and a description, then edits it', async () => {
    const res = await t.post(
      `${A}/admin/roles`,
      {
        name: 'moderator',
        display_name: '版主',
        display_name_en: 'Moderator',
        description: 'Keeps the forum tidy',
      },
      admin.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      data: {
        role: {
          name: 'moderator',
          display_name: '版主',
          display_name_en: 'Moderator',
          description: 'Keeps the forum tidy',
          members: 0,
          builtin: false,
        },
      },
    });
    const edited = await t.post(
      `${A}/admin/roles`,
      { name: 'moderator', display_name_en: 'Forum moderator' },
      admin.token,
    );
    expect(edited.json().data.role).toMatchObject({
      display_name: '版主',
      display_name_en: 'Forum moderator',
      description: 'Keeps the forum tidy',
    });
    expect((await roles()).find((r) => r.name === 'moderator')).toMatchObject({
      display_name_en: 'Forum moderator',
      members: 0,
    });
  });

  it('lists a role given to someone before it was added, with the name as display names', async () => {
    const u = await t.register();
    expect(
      (await giveRoles(u.username, ['player', 'builder'])).statusCode,
    ).toBe(200);
    expect((await roles()).find((r) => r.name === 'builder')).toEqual({
      name: 'builder',
      display_name: 'builder',
      display_name_en: 'builder',
      description: '',
      members: 1,
      builtin: false,
    });
    const members = await t.get(
      `${A}/admin/roles/members?name=builder`,
      admin.token,
    );
    expect(
      members.json().data.users.map((m: { username: string }) => m.username),
    ).toEqual([u.username]);
  });

  it('refuses bad names, and is for administrators only', async () => {
    for (const name of ['', 'Has Caps', 'x'.repeat(33), 'a/b'])
      expect(
        failure(await t.post(`${A}/admin/roles`, { name }, admin.token)),
      ).toEqual([400, refusal('参数错误：name')]);
    const u = await t.register();
    expect(
      failure(await t.post(`${A}/admin/roles`, { name: 'x' }, u.token)),
    ).toEqual([403, refusal('需要管理员权限')]);
    expect(
      failure(await t.post(`${A}/admin/roles/remove`, { name: 'x' }, u.token)),
    ).toEqual([403, refusal('需要管理员权限')]);
  });

  it('never removes player or admin, nor a role an app requires, naming the apps', async () => {
    for (const name of ['player', 'admin'])
      expect(
        failure(await t.post(`${A}/admin/roles/remove`, { name }, admin.token)),
      ).toEqual([409, refusal('内置角色不能删除')]);
    expect(
      failure(
        await t.post(`${A}/admin/roles/remove`, { name: 'nope' }, admin.token),
      ),
    ).toEqual([404, refusal('未知的角色')]);
    await t.post(`${A}/admin/roles`, { name: 'ops' }, admin.token);
    const app = await createApp(t, admin, { display_name: 'Grafana' });
    const set = await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: ['ops'] },
      admin.token,
    );
    expect(set.json().data.required_roles).toEqual(['ops']);
    expect(
      failure(
        await t.post(`${A}/admin/roles/remove`, { name: 'ops' }, admin.token),
      ),
    ).toEqual([
      409,
      refusal(`该角色仍被应用要求，不能删除：Grafana (${app.client_id})`),
    ]);
  });

  it('takes a removed role from every holder, and drops it from the list', async () => {
    const a = await t.register();
    const b = await t.register();
    await giveRoles(a.username, ['player', 'tester']);
    await giveRoles(b.username, ['tester']);
    const res = await t.post(
      `${A}/admin/roles/remove`,
      { name: 'tester' },
      admin.token,
    );
    expect(res.json()).toEqual({ ok: true, data: {} });
    expect((await roles()).some((r) => r.name === 'tester')).toBe(false);
    expect((await t.get(`${A}/me`, a.token)).json().data.roles).toEqual([
      'player',
    ]);
    expect((await t.get(`${A}/me`, b.token)).json().data.roles).toEqual([]);
  });
});

describe('apps limited to roles', () => {
  it('takes only catalogue roles; an empty list admits everyone again', async () => {
    const owner = await t.register();
    const app = await createApp(t, owner);
    expect(app).toMatchObject({ required_roles: [] });
    expect(
      failure(
        await t.post(
          `${A}/apps/update`,
          { client_id: app.client_id, required_roles: ['no-such-role'] },
          owner.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：required_roles')]);
    const other = await t.register();
    expect(
      failure(
        await t.post(
          `${A}/apps/update`,
          { client_id: app.client_id, required_roles: ['player'] },
          other.token,
        ),
      ),
    ).toEqual([403, refusal('无权操作该应用')]);
    await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: ['player'] },
      owner.token,
    );
    const listed = (await t.get(`${A}/apps`, owner.token)).json().data.apps;
    expect(listed[0].required_roles).toEqual(['player']);
    const cleared = await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: [] },
      owner.token,
    );
    expect(cleared.json().data.required_roles).toEqual([]);
  });

  it('v1 authorize refuses a person without a required role, administrators too', async () => {
    await t.post(`${A}/admin/roles`, { name: 'staff' }, admin.token);
    const app = await createApp(t, admin, {
      redirect_uris: ['https://good.example.com/cb'],
    });
    await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: ['staff'] },
      admin.token,
    );
    const ask = {
      client_id: app.client_id,
      redirect_uri: 'https://good.example.com/cb',
    };
    const player = await t.register();
    for (const who of [player, admin])
      expect(failure(await t.post(`${A}/authorize`, ask, who.token))).toEqual([
        403,
        refusal('无权使用该应用'),
      ]);
    await giveRoles(player.username, ['player', 'staff']);
    const res = await t.post(`${A}/authorize`, ask, player.token);
    expect(res.statusCode).toBe(200);
    // The code was issued while the role held; the exchange checks again.
    await giveRoles(player.username, ['player']);
    expect(
      failure(
        await t.post(`${A}/exchange`, {
          client_id: app.client_id,
          client_secret: app.client_secret,
          code: res.json().data.code,
        }),
      ),
    ).toEqual([403, refusal('无权使用该应用')]);
  });

  it('v1 refresh of an app token is refused once the role is gone', async () => {
    await t.post(`${A}/admin/roles`, { name: 'crew' }, admin.token);
    const app = await createApp(t, admin, {
      redirect_uris: ['https://good.example.com/cb'],
    });
    await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: ['crew'] },
      admin.token,
    );
    const person = await t.register();
    await giveRoles(person.username, ['player', 'crew']);
    const { code } = (
      await t.post(
        `${A}/authorize`,
        {
          client_id: app.client_id,
          redirect_uri: 'https://good.example.com/cb',
        },
        person.token,
      )
    ).json().data;
    const token = (
      await t.post(`${A}/exchange`, {
        client_id: app.client_id,
        client_secret: app.client_secret,
        code,
      })
    ).json().access_token as string;
    expect((await t.post(`${A}/refresh`, undefined, token)).statusCode).toBe(
      200,
    );
    await giveRoles(person.username, ['player']);
    expect(failure(await t.post(`${A}/refresh`, undefined, token))).toEqual([
      403,
      refusal('无权使用该应用'),
    ]);
  });
});
