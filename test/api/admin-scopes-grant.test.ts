import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import {
  CB,
  gameRequests,
  OUT_OF_SCOPE,
  SCOPES,
  startGameApp,
  TOKEN_REFUSED,
} from './admin-scopes-setup.js';

/** Admin API scopes granted to an application, used with its client_credentials tokens (docs/api.md §15.3). */
const A = '/api/v1/auth';
let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let game: CreatedApp;

beforeAll(async () => {
  ({ t, owner, game } = await startGameApp());
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
const insufficientScope = (
  res: { headers: Record<string, unknown> },
  scope?: string,
) =>
  expect(res.headers['www-authenticate']).toBe(
    `Bearer error="insufficient_scope"${scope === undefined ? '' : `, scope="${scope}"`}`,
  );

describe('granting admin scopes', () => {
  it('is shown on the app, refuses unknown scopes and apps, and is for admins only', async () => {
    const res = await grant([
      'admin:users:ban',
      'admin:users:read',
      'admin:users:ban',
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      client_id: game.client_id,
      admin_scopes: ['admin:users:read', 'admin:users:ban'],
    });
    expect(
      (
        await t.get(
          `${A}/admin/apps/detail?client_id=${game.client_id}`,
          admin.token,
        )
      ).json().data.admin_scopes,
    ).toEqual(['admin:users:read', 'admin:users:ban']);
    expect(failure(await grant(['admin:users:delete']))).toEqual([
      400,
      refusal('参数错误：scopes'),
    ]);
    expect(failure(await grant(['admin:users:ban'], 'no_such_app'))).toEqual([
      404,
      refusal('未知的应用'),
    ]);
    expect(
      failure(
        await t.post(
          SCOPES,
          { client_id: game.client_id, scopes: [] },
          owner.token,
        ),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
    const audit = (
      await t.get(
        `${A}/admin/audit?action=app.admin_scopes&target=${game.client_id}`,
        admin.token,
      )
    ).json().data.entries;
    expect(audit[0]).toMatchObject({
      actor: admin.username,
      detail: { from: [], to: ['admin:users:read', 'admin:users:ban'] },
    });
  });

  it('cannot be done by an owner through the scopes of their own app', async () => {
    expect(
      failure(
        await t.post(
          `${A}/apps`,
          {
            display_name: 'Sneaky',
            redirect_uris: [CB],
            scopes: ['admin:users:ban'],
          },
          owner.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：scopes')]);
  });
});

describe('a client_credentials token with admin scopes', () => {
  it('gets only granted admin scopes, and only when it asks for them', async () => {
    expect((await grant(['admin:users:ban'])).statusCode).toBe(200);
    expect((await tokenRequest()).json().scope).toBe('stats.read');
    expect((await tokenRequest('admin:users:roles')).json().error).toBe(
      'invalid_scope',
    );
    expect(
      (await tokenRequest('stats.read admin:users:ban')).json().scope,
    ).toBe('stats.read admin:users:ban');
  });

  it('bans with admin:users:ban, audited under the application, and reaches nothing else', async () => {
    expect((await grant(['admin:users:ban'])).statusCode).toBe(200);
    const token = await appToken('admin:users:ban');
    const cheater = await t.register();
    const banned = await banBy(token, cheater.username);
    expect(banned.statusCode, banned.body).toBe(200);
    expect(banned.json().data).toMatchObject({
      username: cheater.username,
      banned: true,
    });
    const audit = (
      await t.get(
        `${A}/admin/audit?action=user.ban&target=${cheater.username}`,
        admin.token,
      )
    ).json().data.entries;
    expect(audit[0]).toMatchObject({
      actor: `app:${game.client_id}`,
      detail: { reason: 'caught cheating' },
    });

    // Everywhere else under /admin, and with no admin scope at all, it is a valid token out of its scope.
    const plain = (await tokenRequest()).json().access_token as string;
    for (const bearer of [token, plain]) {
      const roles = await t.post(
        `${A}/admin/users/roles`,
        { username: cheater.username, roles: ['player'] },
        bearer,
      );
      expect(failure(roles)).toEqual(OUT_OF_SCOPE);
      insufficientScope(roles, 'admin:users:roles');
      expect(
        failure(await t.get(`${A}/admin/users?q=${cheater.username}`, bearer)),
      ).toEqual(OUT_OF_SCOPE);
      expect(
        failure(
          await t.get(
            `${A}/admin/users/detail?username=${cheater.username}`,
            bearer,
          ),
        ),
      ).toEqual(OUT_OF_SCOPE);
      for (const res of [
        await t.get(`${A}/admin/dashboard`, bearer),
        await t.get(`${A}/admin/webhooks`, bearer),
        await t.get(`${A}/admin/audit`, bearer),
        await t.post(
          SCOPES,
          { client_id: game.client_id, scopes: ['admin:users:roles'] },
          bearer,
        ),
      ]) {
        expect(failure(res)).toEqual(OUT_OF_SCOPE);
        insufficientScope(res);
      }
    }
    const unban = await banBy(plain, cheater.username, false);
    expect(failure(unban)).toEqual(OUT_OF_SCOPE);
    insufficientScope(unban, 'admin:users:ban');
    // A token that is not valid stays a 401.
    expect(
      failure(
        await banBy(`${plain.slice(0, -4)}AAAA`, cheater.username, false),
      ),
    ).toEqual(TOKEN_REFUSED);
  });

  it('reads users with admin:users:read and changes roles with admin:users:roles, each audited', async () => {
    expect(
      (await grant(['admin:users:read', 'admin:users:roles'])).statusCode,
    ).toBe(200);
    const reader = await appToken('admin:users:read admin:users:roles');
    const player = await t.register();
    const list = await t.get(`${A}/admin/users?q=${player.username}`, reader);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list.json().data.users.map((u: { username: string }) => u.username),
    ).toEqual([player.username]);
    const detail = await t.get(
      `${A}/admin/users/detail?username=${player.username}`,
      reader,
    );
    expect(detail.json().data.user).toMatchObject({
      username: player.username,
    });
    const roles = await t.post(
      `${A}/admin/users/roles`,
      { username: player.username, roles: ['player', 'vip'] },
      reader,
    );
    expect(roles.json().data.roles).toEqual(['player', 'vip']);
    expect(failure(await banBy(reader, player.username))).toEqual(OUT_OF_SCOPE);

    const byApp = (
      await t.get(`${A}/admin/audit?actor=app:${game.client_id}`, admin.token)
    ).json().data.entries as Array<{ action: string; target: string }>;
    expect(
      byApp
        .filter(
          (e) =>
            e.target === player.username || e.action === 'admin.users_read',
        )
        .map((e) => e.action)
        .slice(0, 3),
    ).toEqual(['user.roles', 'admin.users_read', 'admin.users_read']);
  });
});
