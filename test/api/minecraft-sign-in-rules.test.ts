import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import {
  authenticate,
  LAUNCHER,
  launcherSignIn,
  startMinecraftApp,
  withProfile,
  Y,
} from './minecraft-sign-in-setup.js';

/** Who may sign in through the Yggdrasil API, by which name, and what the center keeps of it (docs/minecraft.md). */
const HOUR = 3_600_000;
let clock = Date.UTC(2031, 6, 1, 8, 0, 0);
let t: TestApp;
beforeAll(async () => {
  t = await startMinecraftApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const join = (accessToken: string, selectedProfile: string, serverId: string) =>
  t.post(`${Y}/sessionserver/session/minecraft/join`, {
    accessToken,
    selectedProfile,
    serverId,
  });
const hasJoined = (username: string, serverId: string) =>
  t.get(
    `${Y}/sessionserver/session/minecraft/hasJoined?username=${username}&serverId=${serverId}`,
  );

const signedIn = launcherSignIn(() => t);

describe('server joins', () => {
  it('of two players under one server id are both checked: a join is keyed by server id and profile', async () => {
    const serverId = uniqueName('srv');
    const players = [];
    for (let i = 0; i < 2; i++) {
      const u = await t.register();
      const profile = await withProfile(t, u);
      players.push({ profile, token: (await signedIn(u)).accessToken });
    }
    for (const p of players)
      expect((await join(p.token, p.profile.id, serverId)).statusCode).toBe(
        204,
      );
    for (const p of players) {
      const res = await hasJoined(p.profile.name, serverId);
      expect([res.statusCode, res.statusCode === 200 && res.json().id]).toEqual(
        [200, p.profile.id],
      );
    }
  });
});

describe('a timed ban that has ended', () => {
  it('no longer refuses launchers: the same rule as /login, on the clock', async () => {
    const admin = await t.admin();
    const u = await t.register();
    const profile = await withProfile(t, u);
    const until = new Date(clock + HOUR).toISOString();
    expect(
      (
        await t.post(
          '/api/v1/auth/admin/users/ban',
          { username: u.username, banned: true, until },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    const refused = await authenticate(t, u.username, u.password);
    expect(refused.statusCode).toBe(403);
    // Launchers print the message as it is: both languages, and when the ban ends.
    const end = until.replace(/\.\d{3}Z$/, 'Z');
    expect(refused.json()).toEqual({
      error: 'ForbiddenOperationException',
      errorMessage: `账号已被封禁，${end} 解封。This account is banned until ${end}.`,
    });

    clock += 2 * HOUR;
    expect(
      (
        await t.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    const { accessToken } = await signedIn(u);
    const serverId = uniqueName('srv');
    expect((await join(accessToken, profile.id, serverId)).statusCode).toBe(
      204,
    );
    expect((await hasJoined(profile.name, serverId)).statusCode).toBe(200);
  });
});

describe('password sign-ins of launchers', () => {
  it('are in the sign-in history and send the new-device notice, as /login does', async () => {
    const u = await t.register();
    await withProfile(t, u);
    expect(
      (
        await t.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    await signedIn(u);
    const history = (
      await t.get('/api/v1/auth/account/sign_ins', u.token)
    ).json().data.sign_ins;
    expect(history[0]).toMatchObject({
      ip: LAUNCHER.remoteAddress,
      user_agent: LAUNCHER.headers['user-agent'],
      method: 'password',
    });
    await waitFor('the notice', 10_000, () =>
      t.smtp.subjectsTo(u.email).some((s) => s.includes('新设备登录提醒')),
    );
  });
});
