import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failure,
  createTestApp,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';
import { jwtClaims } from '../helpers/jwt.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const A = '/api/v1/auth';
const INVALID = { ok: false, msg: '令牌无效或已过期' };
const BANNED = { ok: false, msg: '账号已被封禁' };
describe('refresh', () => {
  it('returns a new token for the same user and app with the same lifetime class', async () => {
    const u = await t.register();
    const res = await t.post(`${A}/refresh`, undefined, u.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      expires_in: 604800,
      user: { uid: u.uid, username: u.username },
    });
    expect(jwtClaims(body.access_token)).toMatchObject({
      app: 'account-center',
      uid: u.uid,
    });
    expect(body.access_token).not.toBe(u.token);

    const user = await t.runtime.storage.users.findById(u.uid);
    const game = (await t.runtime.services.tokens.issue(user!, 'game')).token;
    const g = (await t.post(`${A}/refresh`, undefined, game)).json();
    expect(g.expires_in).toBe(2592000);
    const gp = jwtClaims(g.access_token);
    expect(gp.app).toBe('game');
    expect((gp.exp as number) - (gp.iat as number)).toBe(2592000);

    const third = (await t.runtime.services.tokens.issue(user!, 'some-app'))
      .token;
    const th = (await t.post(`${A}/refresh`, undefined, third)).json();
    expect([th.expires_in, jwtClaims(th.access_token).app]).toEqual([
      604800,
      'some-app',
    ]);
  });

  it('carries the roles as stored now', async () => {
    const u = await t.register();
    await t.runtime.services.admin.setRoles(
      u.username,
      ['player', 'builder'],
      'test',
    );
    const body = (await t.post(`${A}/refresh`, undefined, u.token)).json();
    expect(body.user.roles).toEqual(['player', 'builder']);
    expect(jwtClaims(body.access_token).roles).toEqual(['player', 'builder']);
    expect((await t.get(`${A}/me`, u.token)).json().data.roles).toEqual([
      'player',
      'builder',
    ]);
  });
});

describe('logout', () => {
  it('revokes that token only', async () => {
    const u = await t.register();
    const other = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token;
    expect(failure(await t.post(`${A}/logout`, undefined, u.token))).toEqual([
      200,
      { ok: true, data: {} },
    ]);
    expect(failure(await t.get(`${A}/me`, u.token))).toEqual([401, INVALID]);
    expect(failure(await t.post(`${A}/refresh`, undefined, u.token))).toEqual([
      401,
      INVALID,
    ]);
    expect((await t.get(`${A}/me`, other)).statusCode).toBe(200);
    // Logging out again with the revoked token still answers 200.
    expect(failure(await t.post(`${A}/logout`, {}, u.token))).toEqual([
      200,
      { ok: true, data: {} },
    ]);
  });

  it('with {all:true} revokes every earlier token; later tokens work', async () => {
    const u = await t.register();
    const tokens = [u.token];
    for (let i = 0; i < 2; i++)
      tokens.push(
        (
          await t.post(`${A}/login`, {
            username: u.username,
            password: u.password,
          })
        ).json().access_token,
      );
    const user = await t.runtime.storage.users.findById(u.uid);
    tokens.push((await t.runtime.services.tokens.issue(user!, 'game')).token);
    expect(
      failure(await t.post(`${A}/logout`, { all: true }, tokens[1])),
    ).toEqual([200, { ok: true, data: {} }]);
    for (const token of tokens) {
      expect(failure(await t.get(`${A}/me`, token))).toEqual([401, INVALID]);
      expect(failure(await t.post(`${A}/refresh`, undefined, token))).toEqual([
        401,
        INVALID,
      ]);
    }
    const later = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token;
    expect((await t.get(`${A}/me`, later)).statusCode).toBe(200);
    expect((await t.post(`${A}/refresh`, undefined, later)).statusCode).toBe(
      200,
    );
  });

  it('cuts off tokens issued within the same millisecond as a logout-all', async () => {
    const clock = Date.now();
    const frozen = await createTestApp({}, { now: () => clock });
    try {
      const u = await frozen.register();
      const user = await frozen.runtime.storage.users.findById(u.uid);
      const sameMs = (
        await frozen.runtime.services.tokens.issue(user!, 'account-center')
      ).token;
      expect(
        failure(await frozen.post(`${A}/logout`, { all: true }, u.token)),
      ).toEqual([200, { ok: true, data: {} }]);
      expect(failure(await frozen.get(`${A}/me`, sameMs))).toEqual([
        401,
        INVALID,
      ]);
      const later = await frozen.post(`${A}/login`, {
        username: u.username,
        password: u.password,
      });
      expect(
        (await frozen.get(`${A}/me`, later.json().access_token)).statusCode,
      ).toBe(200);
    } finally {
      await frozen.close();
    }
  });

  it('answers 200 and does nothing without a valid Bearer', async () => {
    const u = await t.register();
    expect(failure(await t.post(`${A}/logout`))).toEqual([
      200,
      { ok: true, data: {} },
    ]);
    expect(failure(await t.post(`${A}/logout`, { all: true }))).toEqual([
      200,
      { ok: true, data: {} },
    ]);
    expect(
      failure(await t.post(`${A}/logout`, { all: true }, 'garbage')),
    ).toEqual([200, { ok: true, data: {} }]);
    expect(
      failure(
        await t.post(`${A}/logout`, { all: 'yes' }, undefined, {
          authorization: 'Basic abc',
        }),
      ),
    ).toEqual([200, { ok: true, data: {} }]);
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
  });

  it('revokes only the token when all is not exactly true', async () => {
    const u = await t.register();
    const other = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token;
    expect(
      (await t.post(`${A}/logout`, { all: 'true' }, u.token)).statusCode,
    ).toBe(200);
    expect((await t.get(`${A}/me`, other)).statusCode).toBe(200);
  });
});

describe('bans', () => {
  it('answer 403 at login, me and refresh; unban restores', async () => {
    const u = await t.register();
    await t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([403, BANNED]);
    expect(failure(await t.get(`${A}/me`, u.token))).toEqual([403, BANNED]);
    expect(failure(await t.post(`${A}/refresh`, undefined, u.token))).toEqual([
      403,
      BANNED,
    ]);
    expect(
      failure(await t.post(`${A}/verify_email`, { code: '123456' }, u.token)),
    ).toEqual([403, BANNED]);
    await t.runtime.services.admin.setBanned(u.username, false, 'test');
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    expect((await t.post(`${A}/refresh`, undefined, u.token)).statusCode).toBe(
      200,
    );
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a banned user can still log out (the token is revoked)', async () => {
    const u = await t.register();
    await t.runtime.services.admin.setBanned(u.username, true, 'test');
    expect(failure(await t.post(`${A}/logout`, undefined, u.token))).toEqual([
      200,
      { ok: true, data: {} },
    ]);
    await t.runtime.services.admin.setBanned(u.username, false, 'test');
    expect(failure(await t.get(`${A}/me`, u.token))).toEqual([401, INVALID]);
  });
});

describe('me', () => {
  it('reflects the stored record of a deleted-or-unknown uid as 401', async () => {
    const user = {
      id: 999_999,
      username: uniqueName(),
      email: 'x@example.com',
      displayName: 'x',
      passwordHash: '',
      emailVerified: false,
      roles: [],
      banned: false,
      banReason: '',
      bannedUntil: null,
      tokensValidAfter: 0,
      createdAt: 0,
      updatedAt: 0,
    };
    const token = (
      await t.runtime.services.tokens.issue(user, 'account-center')
    ).token;
    expect(failure(await t.get(`${A}/me`, token))).toEqual([401, INVALID]);
  });
});
