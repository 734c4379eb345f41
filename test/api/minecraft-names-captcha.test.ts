import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import {
  authenticate,
  launcherSignIn,
  P,
  startMinecraftApp,
  withProfile,
} from './minecraft-sign-in-setup.js';
import { profileName } from './minecraft-yggdrasil-setup.js';

/** Who may sign in through the Yggdrasil API, by which name, and what the center keeps of it (docs/minecraft.md). */
const TAKEN = refusal('角色名已被占用');
const clock = Date.UTC(2031, 6, 1, 8, 0, 0);
let t: TestApp;
beforeAll(async () => {
  t = await startMinecraftApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const signedIn = launcherSignIn(() => t);

describe('profile names', () => {
  it("are resolved first: a username equal to a profile name does not capture that player's sign-ins", async () => {
    const owner = await t.register();
    const name = profileName();
    const profile = await withProfile(t, owner, name);
    await t.register({ username: name });
    const res = await signedIn(owner, name);
    expect(res.selectedProfile).toEqual(profile);
  });

  it("may not be a staff name, the site name or another account's username; administrators may give staff names", async () => {
    const u = await t.register();
    for (const name of [
      'admin',
      'Administrator',
      'ROOT',
      'moderator',
      'Support',
      'CreeperTown',
      'creeper_town',
    ]) {
      expect(failure(await t.post(P, { name }, u.token)), name).toEqual([
        409,
        TAKEN,
      ]);
    }
    const other = await t.register({
      username: `u${uniqueName('')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-10)}`,
    });
    expect(
      failure(await t.post(P, { name: other.username.toUpperCase() }, u.token)),
    ).toEqual([409, TAKEN]);
    const mine = await t.register({
      username: `m${uniqueName('')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-10)}`,
    });
    const own = await withProfile(t, mine, mine.username);
    expect(
      failure(
        await t.post(`${P}/rename`, { id: own.id, name: 'Staff' }, mine.token),
      ),
    ).toEqual([409, TAKEN]);
    const admin = await t.admin();
    const renamed = await t.post(
      '/api/v1/auth/admin/minecraft/profiles/rename',
      { id: own.id, name: 'Staff' },
      admin.token,
    );
    expect([renamed.statusCode, renamed.json().data]).toEqual([
      200,
      { id: own.id, name: 'Staff' },
    ]);
  });
});

describe('the CAPTCHA gate of /login', () => {
  const NEEDED = refusal('请完成人机验证');
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({
      MINECRAFT: 'on',
      CAPTCHA: 'altcha',
      CAPTCHA_COST: '5000',
    });
  });
  afterAll(async () => {
    await c.close();
  });

  async function account(): Promise<TestUser> {
    const username = uniqueName('cap');
    const body = {
      username,
      password: 'correct horse battery',
      email: `${username}@example.com`,
      captcha: await solvedCaptcha(c),
    };
    const res = await c.post('/api/v1/auth/register', body);
    expect(res.statusCode, res.body).toBe(200);
    return {
      token: res.json().access_token,
      uid: res.json().user.uid,
      username,
      password: body.password,
      email: body.email,
    };
  }

  it('refuses launcher password sign-ins once up; a game token still signs in', async () => {
    const u = await account();
    for (let i = 0; i < 3; i++)
      expect(
        (
          await c.post('/api/v1/auth/login', {
            username: u.username,
            password: `wrong ${i}`,
          })
        ).statusCode,
      ).toBe(401);
    expect(
      failure(
        await c.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([400, NEEDED]);
    const refused = await authenticate(c, u.username, u.password);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      'ForbiddenOperationException',
    ]);
    expect(refused.json().errorMessage).toContain('game token');
    const game = (
      await c.post('/api/v1/auth/game_token', undefined, u.token)
    ).json().access_token;
    expect((await authenticate(c, u.username, game)).statusCode).toBe(200);
  });

  it('is put up by failed launcher sign-ins too, for the launcher and for /login', async () => {
    const u = await account();
    for (let i = 0; i < 3; i++)
      expect((await authenticate(c, u.username, `wrong ${i}`)).statusCode).toBe(
        403,
      );
    expect(
      (await authenticate(c, u.username, u.password)).json().errorMessage,
    ).toContain('game token');
    expect(
      failure(
        await c.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([400, NEEDED]);
  });
});
