import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { jwtClaims } from '../helpers/jwt.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('game_token', () => {
  it('issues a 30-day token for the game app, called with no body', async () => {
    const u = await t.register();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/game_token',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'ok',
      'token_type',
      'user',
    ]);
    expect([body.ok, body.token_type, body.expires_in]).toEqual([
      true,
      'Bearer',
      2592000,
    ]);
    expect(body.user).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: u.username,
      email: u.email,
      roles: ['player'],
    });
    const claims = jwtClaims(body.access_token);
    expect([
      claims.app,
      claims.sub,
      claims.uid,
      claims.exp - claims.iat,
    ]).toEqual(['game', u.username, u.uid, 2592000]);

    const me = (await t.get('/api/v1/auth/me', body.access_token)).json();
    expect([me.data.app, me.data.exp]).toEqual(['game', claims.exp]);
    expect(
      (
        await t.runtime.storage.audit.list(
          { action: 'game_token.issue', actor: u.username },
          0,
          10,
        )
      ).total,
    ).toBe(1);
  });

  it('a game token refreshes to a game token', async () => {
    const u = await t.register();
    const game = (
      await t.post('/api/v1/auth/game_token', undefined, u.token)
    ).json().access_token;
    const refreshed = await t.post('/api/v1/auth/refresh', undefined, game);
    expect(refreshed.statusCode).toBe(200);
    const claims = jwtClaims(refreshed.json().access_token);
    expect([
      refreshed.json().expires_in,
      claims.app,
      claims.exp - claims.iat,
    ]).toEqual([2592000, 'game', 2592000]);
  });

  it('needs a valid first-party token of a user who is not banned', async () => {
    const u = await t.register();
    const none = await t.post('/api/v1/auth/game_token');
    expect([none.statusCode, none.json()]).toEqual([
      401,
      { ok: false, msg: '令牌无效或已过期' },
    ]);
    const game = (
      await t.post('/api/v1/auth/game_token', undefined, u.token)
    ).json().access_token;
    const fromGame = await t.post('/api/v1/auth/game_token', undefined, game);
    expect([fromGame.statusCode, fromGame.json()]).toEqual([
      403,
      { ok: false, msg: '该令牌无权访问此接口' },
    ]);
    await t.runtime.services.admin.setBanned(u.username, true, 'test');
    const banned = await t.post('/api/v1/auth/game_token', undefined, u.token);
    expect([banned.statusCode, banned.json()]).toEqual([
      403,
      { ok: false, msg: '账号已被封禁' },
    ]);
  });

  it('follows GAME_APP_ID and GAME_TOKEN_TTL', async () => {
    const other = await createTestApp({
      GAME_APP_ID: 'space-miners',
      GAME_TOKEN_TTL: '86400',
    });
    try {
      const u = await other.register();
      const body = (
        await other.post('/api/v1/auth/game_token', undefined, u.token)
      ).json();
      const claims = jwtClaims(body.access_token);
      expect([body.expires_in, claims.app, claims.exp - claims.iat]).toEqual([
        86400,
        'space-miners',
        86400,
      ]);
    } finally {
      await other.close();
    }
  });
});
