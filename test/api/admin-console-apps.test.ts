import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { authorizeCode, createApp } from '../helpers/oauth.js';

const A = '/api/v1/auth';
const ADM = `${A}/admin`;
const CB = 'https://good.example.com/cb';
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

describe('admin: applications', () => {
  it('lists and searches by name, owner and client_id; opens one', async () => {
    const u = await t.register();
    const app = await createApp(t, u, { display_name: 'Searchable Zebra' });
    const byName = (await t.get(`${ADM}/apps?q=zebra`, admin.token)).json()
      .data;
    expect(
      byName.apps.map((a: { client_id: string }) => a.client_id),
    ).toContain(app.client_id);
    const byOwner = (
      await t.get(`${ADM}/apps?q=${u.username}`, admin.token)
    ).json().data;
    expect(byOwner).toMatchObject({
      total: 1,
      apps: [
        {
          client_id: app.client_id,
          owner: u.username,
          owner_uid: u.uid,
          status: 'active',
        },
      ],
    });
    expect(
      (await t.get(`${ADM}/apps?q=${app.client_id}`, admin.token)).json().data
        .total,
    ).toBe(1);
    expect(
      (
        await t.get(
          `${ADM}/apps/detail?client_id=${app.client_id}`,
          admin.token,
        )
      ).json().data.display_name,
    ).toBe('Searchable Zebra');
    expect(
      failure(await t.get(`${ADM}/apps/detail?client_id=nope`, admin.token)),
    ).toEqual([404, refusal('未知的应用')]);
  });

  it('disabling with a reason: exchange gets 403, the owner sees the reason and can not restart it; admin can', async () => {
    const u = await t.register();
    const app = await createApp(t, u);
    const code = await authorizeCode(t, u, {
      client_id: app.client_id,
      redirect_uri: CB,
      response_type: 'code',
      scope: 'profile',
    });
    expect(
      failure(
        await t.post(
          `${ADM}/apps/status`,
          { client_id: app.client_id, enabled: false, reason: '  ' },
          admin.token,
        ),
      ),
    ).toEqual([400, refusal('请填写原因')]);
    const off = await t.post(
      `${ADM}/apps/status`,
      { client_id: app.client_id, enabled: false, reason: '发送垃圾邮件' },
      admin.token,
    );
    expect(off.json().data).toMatchObject({
      status: 'disabled',
      stored_status: 'admin_disabled',
      status_reason: '发送垃圾邮件',
    });
    const ex = await t.post(`${A}/exchange`, {
      client_id: app.client_id,
      client_secret: app.client_secret,
      code,
      redirect_uri: CB,
    });
    expect(failure(ex)).toEqual([403, refusal('该应用已被停用')]);
    const mine = (await t.get(`${A}/apps`, u.token)).json().data.apps;
    expect(
      mine.find((a: { client_id: string }) => a.client_id === app.client_id),
    ).toMatchObject({ status: 'disabled' });
    const notices = (
      await t.get(`${A}/account/app_suspensions`, u.token)
    ).json().data.suspensions;
    expect(notices).toEqual([
      {
        client_id: app.client_id,
        display_name: 'Demo App',
        reason: '发送垃圾邮件',
        at: expect.any(Number),
      },
    ]);
    expect(
      failure(
        await t.post(
          `${A}/apps/disable`,
          { client_id: app.client_id, enabled: true },
          u.token,
        ),
      ),
    ).toEqual([403, refusal('该应用已被管理员停用')]);
    const on = await t.post(
      `${ADM}/apps/status`,
      { client_id: app.client_id, enabled: true, reason: '已整改' },
      admin.token,
    );
    expect(on.json().data).toMatchObject({
      status: 'active',
      status_reason: '',
    });
    expect(
      (await t.get(`${A}/account/app_suspensions`, u.token)).json().data
        .suspensions,
    ).toEqual([]);
    const audit = await t.runtime.storage.audit.list(
      { target: app.client_id },
      0,
      10,
    );
    expect(
      audit.entries
        .filter((e) => e.action.startsWith('app.admin_'))
        .map((e) => [e.action, e.detail.reason]),
    ).toEqual([
      ['app.admin_enable', '已整改'],
      ['app.admin_disable', '发送垃圾邮件'],
    ]);
  });
});

describe('admin: audit log and dashboard', () => {
  it('filters by actor, target, action and time range, pages, and downloads CSV', async () => {
    const u = await t.register();
    const nowS = Math.floor(Date.now() / 1000);
    const q = (s: string) => t.get(`${ADM}/audit?${s}`, admin.token);
    const byTarget = (
      await q(`target=${u.username}&action=user.register`)
    ).json().data;
    expect(byTarget.total).toBe(1);
    expect(
      (await q(`target=${u.username}&from=${nowS - 60}&to=${nowS + 60}`)).json()
        .data.total,
    ).toBeGreaterThanOrEqual(1);
    expect(
      (await q(`target=${u.username}&to=${nowS - 3600}`)).json().data.total,
    ).toBe(0);
    expect(
      (await q(`target=${u.username}&from=${nowS + 3600}`)).json().data.total,
    ).toBe(0);
    expect(failure(await q('from=yesterday'))).toEqual([
      400,
      refusal('参数错误：from'),
    ]);
    const csv = await t.get(
      `${ADM}/audit/export?target=${u.username}`,
      admin.token,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,time,actor,ip,action,target,detail');
    expect(
      lines.some(
        (l) => l.includes(',user.register,') && l.includes(u.username),
      ),
    ).toBe(true);
    expect((await t.get(`${ADM}/audit/export`, u.token)).statusCode).toBe(403);
  });

  it('dashboard: user total, 30 days of new users, sign-ins and failures, active apps', async () => {
    const u = await t.register();
    await t.post(`${A}/login`, {
      username: u.username,
      password: 'wrong password!',
    });
    const d = (await t.get(`${ADM}/dashboard`, admin.token)).json().data;
    expect(d.users_total).toBe(await t.runtime.storage.users.count());
    for (const series of [d.new_users, d.sign_ins, d.failed_sign_ins])
      expect(series).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(d.new_users.at(-1)).toEqual({
      day: today,
      count: expect.any(Number),
    });
    expect(d.new_users.at(-1).count).toBeGreaterThanOrEqual(1);
    expect(d.sign_ins.at(-1).count).toBeGreaterThanOrEqual(1);
    expect(d.failed_sign_ins.at(-1).count).toBeGreaterThanOrEqual(1);
    expect(typeof d.active_apps).toBe('number');
    expect(typeof d.rate_limited_since_start).toBe('number');
  });
});
