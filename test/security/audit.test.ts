import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

let t: TestApp;
let admin: TestUser;
let dev: TestUser;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  admin = await t.admin();
  dev = await t.register();
});
afterAll(async () => {
  await t.close();
});

interface Entry {
  id: number;
  at: number;
  actor: string | null;
  ip: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

async function audit(query = ''): Promise<{ entries: Entry[]; total: number }> {
  const res = await t.get(`/api/v1/auth/admin/audit${query}`, admin.token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('GET /api/v1/auth/admin/audit', () => {
  it('is for admins only', async () => {
    expect((await t.get('/api/v1/auth/admin/audit')).statusCode).toBe(401);
    const other = await t.get('/api/v1/auth/admin/audit', dev.token);
    expect([other.statusCode, other.json()]).toEqual([
      403,
      { ok: false, msg: '需要管理员权限' },
    ]);
    const bad = await t.get('/api/v1/auth/admin/audit?page=0', admin.token);
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：page' },
    ]);
    expect(
      (await t.get('/api/v1/auth/admin/audit?page=abc', admin.token))
        .statusCode,
    ).toBe(400);
  });

  it('records the whole set of security events, with who, where and when', async () => {
    const started = Math.floor(Date.now() / 1000);
    const ip = { 'x-forwarded-for': '203.0.113.7' };
    // Sign-ins: a failure and a success.
    expect(
      (
        await t.post(
          '/api/v1/auth/login',
          { username: dev.username, password: 'wrong password!' },
          undefined,
          ip,
        )
      ).statusCode,
    ).toBe(401);
    const signedIn = await t.post(
      '/api/v1/auth/login',
      { username: dev.username, password: dev.password },
      undefined,
      ip,
    );
    expect(signedIn.statusCode).toBe(200);
    // An e-mail code guessed wrong.
    expect(
      (
        await t.post('/api/v1/auth/send_code', {
          email: dev.email,
          purpose: 'login',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          '/api/v1/auth/login_by_code',
          { email: dev.email, code: '000000' },
          undefined,
          ip,
        )
      ).statusCode,
    ).toBe(400);
    // The application life cycle.
    const created = await t.post(
      '/api/v1/auth/apps',
      { display_name: 'Audited', redirect_uris: ['https://example.com/cb'] },
      dev.token,
      ip,
    );
    expect(created.statusCode).toBe(200);
    const clientId = created.json().data.client_id as string;
    expect(
      (
        await t.post(
          '/api/v1/auth/apps/update',
          { client_id: clientId, display_name: 'Audited 2' },
          dev.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          '/api/v1/auth/apps/rotate_secret',
          { client_id: clientId },
          dev.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          '/api/v1/auth/apps/disable',
          { client_id: clientId, enabled: false },
          dev.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    // A device approval.
    const started2 = await t.post('/api/v1/auth/device/start', {});
    const userCode = started2.json().data.user_code as string;
    expect(
      (
        await t.post(
          '/api/v1/auth/device/approve',
          { user_code: userCode },
          dev.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    // Administration: a role change, a ban and an unban.
    const victim = await t.register();
    expect(
      (
        await t.post(
          '/api/v1/auth/admin/users/roles',
          { username: victim.username, roles: ['player', 'builder'] },
          admin.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          '/api/v1/auth/admin/users/ban',
          { username: victim.username, banned: true },
          admin.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          '/api/v1/auth/admin/users/ban',
          { username: victim.username, banned: false },
          admin.token,
          ip,
        )
      ).statusCode,
    ).toBe(200);

    const { entries } = await audit();
    const find = (action: string, target: string | null) =>
      entries.find((e) => e.action === action && e.target === target);
    const expected: Array<[string, string, string]> = [
      ['login.failure', dev.username, dev.username],
      ['login.success', dev.username, dev.username],
      ['app.create', dev.username, clientId],
      ['app.update', dev.username, clientId],
      ['app.rotate_secret', dev.username, clientId],
      ['app.disable', dev.username, clientId],
      ['device.approve', dev.username, 'account-center'],
      ['user.roles', admin.username, victim.username],
      ['user.ban', admin.username, victim.username],
      ['user.unban', admin.username, victim.username],
    ];
    const codeFailure = entries.find(
      (e) => e.action === 'login.failure' && e.detail.method === 'email_code',
    );
    expect(codeFailure).toMatchObject({
      target: dev.username,
      ip: '203.0.113.7',
    });
    for (const [action, actor, target] of expected) {
      const e = find(action, target);
      expect(e, `${action} → ${target}`).toBeDefined();
      expect(e!.actor).toBe(actor);
      expect(e!.ip).toBe('203.0.113.7');
      expect(e!.at).toBeGreaterThanOrEqual(started - 1);
      expect(e!.at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
      expect(Object.keys(e!).sort()).toEqual([
        'action',
        'actor',
        'at',
        'detail',
        'id',
        'ip',
        'target',
      ]);
    }
    // Nothing secret ends up in the trail.
    const text = JSON.stringify(entries);
    for (const secret of [
      dev.password,
      created.json().data.client_secret,
      signedIn.json().access_token,
      userCode,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('filters by action, actor and target, newest first, 50 a page', async () => {
    for (let i = 0; i < 3; i++)
      await t.post('/api/v1/auth/login', {
        username: dev.username,
        password: 'wrong password!',
      });
    const failures = await audit(
      `?action=login.failure&target=${dev.username}`,
    );
    expect(failures.entries.length).toBeGreaterThanOrEqual(4);
    expect(failures.total).toBe(failures.entries.length);
    expect(
      failures.entries.every(
        (e) => e.action === 'login.failure' && e.target === dev.username,
      ),
    ).toBe(true);
    const ids = failures.entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const byAdmin = await audit(`?actor=${admin.username}`);
    expect(byAdmin.entries.length).toBeGreaterThan(0);
    expect(byAdmin.entries.every((e) => e.actor === admin.username)).toBe(true);
    expect((await audit('?action=no.such.action')).total).toBe(0);

    for (let i = 0; i < 55; i++)
      await t.runtime.services.audit.record('test.filler', {
        actor: 'filler',
        target: String(i),
      });
    const all = await audit();
    const page2 = await audit('?page=2');
    expect(all.entries.length).toBe(Math.min(50, all.total));
    expect(page2.total).toBe(all.total);
    expect(all.total).toBeGreaterThan(55);
    expect(page2.entries[0]!.id).toBeLessThan(all.entries[49]!.id);
    expect(
      (await audit('?actor=filler&page=2')).entries.map((e) => e.target),
    ).toEqual(['4', '3', '2', '1', '0']);
  });
});
