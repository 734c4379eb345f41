import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import { cliWorkspace } from '../helpers/cli.js';
import {
  failure,
  refusal,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

/** Bans with a reason and an end (docs/api.md §15.1). */
const clock = testClock();
const A = '/api/v1/auth';
const MINUTE = 60_000;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock.now });
});
// A fresh administrator's token each time: the tests move the clock by hours.
beforeEach(async () => {
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

const ban = (body: Record<string, unknown>) =>
  t.post(`${A}/admin/users/ban`, body, admin.token);
const login = (u: TestUser) =>
  t.post(`${A}/login`, { username: u.username, password: u.password });

describe('a timed ban', () => {
  it('refuses sign-in and tokens with the contract answer, tells the reason and end, and ends by itself', async () => {
    const u = await t.register();
    const until = new Date(clock.now + 30 * MINUTE).toISOString();
    const res = await ban({
      username: u.username,
      banned: true,
      reason: '外挂 cheating',
      until,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.banned).toBe(true);

    const refused = await login(u);
    expect(failure(refused)).toEqual([403, refusal('账号已被封禁')]);
    expect(decodeURIComponent(String(refused.headers['x-ban-reason']))).toBe(
      '外挂 cheating',
    );
    expect(Number(refused.headers['x-ban-until'])).toBe(
      Math.floor(Date.parse(until) / 1000),
    );
    expect(failure(await t.get(`${A}/me`, u.token))).toEqual([
      403,
      refusal('账号已被封禁'),
    ]);
    // Only the person who proved who they are learns the reason.
    const wrongPassword = await t.post(`${A}/login`, {
      username: u.username,
      password: 'not the password',
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.headers['x-ban-reason']).toBeUndefined();

    const detail = (
      await t.get(`${A}/admin/users/detail?username=${u.username}`, admin.token)
    ).json().data.user;
    expect(detail).toMatchObject({
      banned: true,
      ban_reason: '外挂 cheating',
      banned_until: Math.floor(Date.parse(until) / 1000),
    });

    clock.now += 30 * MINUTE;
    expect((await login(u)).statusCode).toBe(200);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    const listed = (
      await t.get(`${A}/admin/users?q=${u.username}`, admin.token)
    ).json().data.users[0];
    expect(listed.banned).toBe(false);
  });

  it('is permanent without an end, and an unban lifts it', async () => {
    const u = await t.register();
    expect((await ban({ username: u.username, banned: true })).statusCode).toBe(
      200,
    );
    const refused = await login(u);
    expect(failure(refused)).toEqual([403, refusal('账号已被封禁')]);
    expect(refused.headers['x-ban-until']).toBeUndefined();
    clock.now += 50 * MINUTE;
    expect((await login(u)).statusCode).toBe(403);
    expect(
      (await ban({ username: u.username, banned: false })).json().data.banned,
    ).toBe(false);
    expect((await login(u)).statusCode).toBe(200);
  });

  it('refuses an end that is not a future ISO-8601 time, and an overlong reason', async () => {
    const u = await t.register();
    const bad = [
      'tomorrow',
      '2030-01-01',
      '2030-01-01T00:00:00',
      new Date(clock.now - 1000).toISOString(),
      '2030-02-30T00:00:00Z',
      'x'.repeat(100),
    ];
    for (const until of bad) {
      expect(
        failure(await ban({ username: u.username, banned: true, until })),
        until,
      ).toEqual([400, refusal('参数错误：until')]);
    }
    expect(
      failure(await ban({ username: u.username, banned: true, until: 5 })),
    ).toEqual([400, refusal('参数错误：until')]);
    expect(
      failure(
        await ban({
          username: u.username,
          banned: true,
          reason: 'x'.repeat(501),
        }),
      ),
    ).toEqual([400, refusal('参数错误：reason')]);
    expect((await login(u)).statusCode).toBe(200);
  });
});

describe('user ban on the command line', () => {
  const ws = cliWorkspace('ac-bans-');
  afterAll(() => ws.dispose());

  it('takes --reason and --until, and refuses a past end', async () => {
    clock.restore();
    const db = await ws.freshDatabase('bans');
    expect((await ws.cli(db, ['migrate'])).code).toBe(0);
    const created = await ws.cli(db, [
      'user',
      'create',
      '--username',
      'griefer',
      '--password',
      'password123',
      '--email',
      'g@example.com',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const until = new Date(Date.now() + 24 * 60 * MINUTE).toISOString();
    const banned = await ws.cli(db, [
      'user',
      'ban',
      'griefer',
      '--reason',
      'griefing',
      '--until',
      until,
    ]);
    expect(banned.code, banned.stderr).toBe(0);
    expect(JSON.parse(banned.stdout)).toMatchObject({
      username: 'griefer',
      banned: true,
    });
    const past = await ws.cli(db, [
      'user',
      'ban',
      'griefer',
      '--until',
      '2000-01-01T00:00:00Z',
    ]);
    expect(past.code).not.toBe(0);
    expect(past.stderr).toContain('until');

    const service = await ws.service(db);
    try {
      const refused = await service.post(`${A}/login`, {
        username: 'griefer',
        password: 'password123',
      });
      expect(failure(refused)).toEqual([403, refusal('账号已被封禁')]);
      expect(refused.headers['x-ban-reason']).toBe('griefing');
    } finally {
      await service.close();
    }
  }, 180_000);
});
