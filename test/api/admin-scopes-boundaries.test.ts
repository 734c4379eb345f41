import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import {
  CB,
  gameRequests,
  ISSUER,
  OUT_OF_SCOPE,
  startGameApp,
  TOKEN_REFUSED,
} from './admin-scopes-setup.js';

/** Admin API scopes granted to an application, used with its client_credentials tokens (docs/api.md §15.3). */
const A = '/api/v1/auth';
let t: TestApp;
let admin: TestUser;
let game: CreatedApp;

beforeAll(async () => {
  ({ t, game } = await startGameApp());
});
beforeEach(async () => {
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
});

const { grant, tokenRequest, appToken, banBy } = gameRequests(() => ({
  t,
  admin,
  game,
}));

describe('a client_credentials token with admin scopes', () => {
  it('never bans an administrator, nor makes or unmakes one', async () => {
    expect(
      (await grant(['admin:users:ban', 'admin:users:roles'])).statusCode,
    ).toBe(200);
    const token = await appToken('admin:users:ban admin:users:roles');
    const other = await t.admin();
    const player = await t.register();
    const ADMINS_ONLY = [403, refusal('需要管理员权限')];
    expect(failure(await banBy(token, other.username))).toEqual(ADMINS_ONLY);
    expect(
      failure(
        await t.post(
          `${A}/admin/users/roles`,
          { username: other.username, roles: ['player'] },
          token,
        ),
      ),
    ).toEqual(ADMINS_ONLY);
    expect(
      failure(
        await t.post(
          `${A}/admin/users/roles`,
          { username: player.username, roles: ['admin'] },
          token,
        ),
      ),
    ).toEqual(ADMINS_ONLY);
    const detail = await t.get(
      `${A}/admin/users/detail?username=${other.username}`,
      admin.token,
    );
    expect(detail.json().data.user).toMatchObject({
      banned: false,
      roles: expect.arrayContaining(['admin']),
    });
    expect(
      (
        await t.get(
          `${A}/admin/users/detail?username=${player.username}`,
          admin.token,
        )
      ).json().data.user.roles,
    ).not.toContain('admin');
  });

  it('never reads an administrator: not in user lists, and no detail, sessions or audit trail', async () => {
    expect((await grant(['admin:users:read'])).statusCode).toBe(200);
    const reader = await appToken('admin:users:read');
    const other = await t.admin();
    const player = await t.register({ username: `${other.username}_p` });
    // The same search: an administrator sees both, the application only the player.
    const byAdmin = (
      await t.get(`${A}/admin/users?q=${other.username}`, admin.token)
    ).json().data;
    expect(byAdmin.users.map((u: { username: string }) => u.username)).toEqual([
      other.username,
      player.username,
    ]);
    const byApp = (
      await t.get(`${A}/admin/users?q=${other.username}`, reader)
    ).json().data;
    expect(byApp).toEqual({
      users: [expect.objectContaining({ username: player.username })],
      total: 1,
    });
    const everyone = (await t.get(`${A}/admin/users?q=admin_`, reader)).json()
      .data.users as Array<{ roles: string[] }>;
    expect(everyone.filter((u) => u.roles.includes('admin'))).toEqual([]);

    const detail = await t.get(
      `${A}/admin/users/detail?username=${other.username}`,
      reader,
    );
    expect(failure(detail)).toEqual([403, refusal('需要管理员权限')]);
    expect(detail.body).not.toContain(other.email);
    expect(
      (
        await t.get(
          `${A}/admin/users/detail?username=${player.username}`,
          reader,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('stops at once when the scope is revoked or the app is stopped, though the token lives on', async () => {
    expect((await grant(['admin:users:ban'])).statusCode).toBe(200);
    const token = await appToken('admin:users:ban');
    const target = await t.register();
    expect((await banBy(token, target.username)).statusCode).toBe(200);
    expect((await grant([])).json().data.admin_scopes).toEqual([]);
    // Still a valid token, no longer granted what it carries.
    expect(failure(await banBy(token, target.username, false))).toEqual(
      OUT_OF_SCOPE,
    );
    expect((await tokenRequest('admin:users:ban')).json().error).toBe(
      'invalid_scope',
    );

    expect((await grant(['admin:users:ban'])).statusCode).toBe(200);
    expect((await banBy(token, target.username, false)).statusCode).toBe(200);
    const stop = await t.post(
      `${A}/admin/apps/status`,
      { client_id: game.client_id, enabled: false, reason: 'leaked secret' },
      admin.token,
    );
    expect(stop.statusCode).toBe(200);
    expect(failure(await banBy(token, target.username))).toEqual(TOKEN_REFUSED);
    expect(
      (
        await t.post(
          `${A}/admin/apps/status`,
          { client_id: game.client_id, enabled: true, reason: 'new secret' },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await banBy(token, target.username)).statusCode).toBe(200);
  });

  it('is the only token of an application that reaches /admin: a person’s tokens of it do not', async () => {
    expect(
      (await grant(['admin:users:ban', 'admin:users:read'])).statusCode,
    ).toBe(200);
    const as = await discover(t, ISSUER);
    const person = await t.register();
    const tokens = await signInWithCode(
      t,
      as,
      person,
      game,
      CB,
      'openid stats.read',
    );
    const victim = await t.register();
    expect(failure(await banBy(tokens.access_token, victim.username))).toEqual(
      TOKEN_REFUSED,
    );
    expect(
      failure(await t.get(`${A}/admin/users`, tokens.access_token)),
    ).toEqual(TOKEN_REFUSED);
    // Even an administrator's own token of the application stays outside, as before.
    const boss = await signInWithCode(
      t,
      as,
      admin,
      game,
      CB,
      'openid stats.read',
    );
    expect(failure(await banBy(boss.access_token, victim.username))).toEqual(
      TOKEN_REFUSED,
    );
  });
});
