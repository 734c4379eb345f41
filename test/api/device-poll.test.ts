import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/platform/crypto/random.js';
import { testClock } from '../helpers/clock.js';
import { uniqueName, type TestApp, type TestUser } from '../helpers/app.js';
import { jwtClaims } from '../helpers/jwt.js';
import { deviceRequests, startDeviceApp } from './device-setup.js';

/** A clock the tests move by hand, so polling intervals and windows need no real waiting. */
const clock = testClock();
const advance = (ms: number) => {
  clock.now += ms;
};

let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  ({ t, alice } = await startDeviceApp(() => clock.now));
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

const { start, poll, approve } = deviceRequests(() => ({ t, alice }));

async function createApp(status = 'active') {
  const clientId = uniqueName('app').toLowerCase().replace(/_/g, '-');
  await t.runtime.storage.apps.create(
    {
      clientId,
      ownerId: alice.uid,
      displayName: 'Space Miners',
      homepage: 'https://miners.example.com',
      scopes: [],
      redirectUris: ['https://miners.example.com/cb'],
      corsOrigins: [],
      clientType: 'public',
      secretHash: null,
      status,
    },
    clock.now,
  );
  return clientId;
}

/** The owner disables an app through the applications API, as the console does. */
async function disableApp(clientId: string) {
  const res = await t.post(
    '/api/v1/auth/apps/disable',
    { client_id: clientId, enabled: false },
    alice.token,
  );
  expect([res.statusCode, res.json().data?.status]).toEqual([200, 'disabled']);
}

describe('device/poll', () => {
  const failure = (error: string, msg: string) => ({ ok: false, msg, error });

  it('is pending until approved, then gives the token once', async () => {
    const { device_code, user_code } = await start();
    const pending = await poll(device_code);
    expect([pending.statusCode, pending.json()]).toEqual([
      400,
      failure('authorization_pending', '等待用户确认'),
    ]);
    expect(pending.headers['cache-control']).toBe('no-store');

    const ok = await approve(user_code);
    expect([ok.statusCode, ok.json()]).toEqual([
      200,
      {
        ok: true,
        data: { client_id: 'account-center', display_name: '账号中心' },
      },
    ]);

    const res = await poll(device_code);
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
    expect(body.user).toEqual({
      uid: alice.uid,
      username: alice.username,
      display_name: alice.username,
      email: alice.email,
      roles: ['player'],
    });
    const claims = jwtClaims(body.access_token);
    expect([
      claims.app,
      claims.sub,
      claims.exp - claims.iat,
      body.expires_in,
    ]).toEqual(['account-center', alice.username, 604800, 604800]);
    expect(
      (await t.get('/api/v1/auth/me', body.access_token)).json().data.username,
    ).toBe(alice.username);

    const again = await poll(device_code);
    expect([again.statusCode, again.json()]).toEqual([
      400,
      failure('expired_token', '设备码无效或已过期'),
    ]);
    const audit = await t.runtime.storage.audit.list(
      { action: 'device.approve', actor: alice.username },
      0,
      10,
    );
    expect(audit.entries[0]?.target).toBe('account-center');
  });

  it('the token carries the app of the start; the game app gets a game-lifetime token', async () => {
    const clientId = await createApp();
    const third = await start(clientId);
    expect((await approve(third.user_code)).json().data).toEqual({
      client_id: clientId,
      display_name: 'Space Miners',
    });
    const tok = (await poll(third.device_code)).json();
    expect([jwtClaims(tok.access_token).app, tok.expires_in]).toEqual([
      clientId,
      604800,
    ]);

    const game = await start('game');
    expect((await approve(game.user_code)).json().data).toEqual({
      client_id: 'game',
      display_name: '游戏',
    });
    const gameTok = (await poll(game.device_code)).json();
    const claims = jwtClaims(gameTok.access_token);
    expect([claims.app, claims.exp - claims.iat, gameTok.expires_in]).toEqual([
      'game',
      2592000,
      2592000,
    ]);
  });

  it('of concurrent polls of an approved code exactly one gets a token', async () => {
    const { device_code, user_code } = await start();
    await approve(user_code);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => poll(device_code)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200))
      expect(r.json().error).toBe('expired_token');
  });

  it('slow_down when polled sooner than the interval; the interval grows by 5 s and stays', async () => {
    const { device_code } = await start();
    const hash = sha256Hex(device_code);
    expect((await poll(device_code)).json().error).toBe(
      'authorization_pending',
    );
    const fast = await poll(device_code);
    expect([fast.statusCode, fast.json()]).toEqual([
      400,
      failure('slow_down', '请求过于频繁'),
    ]);
    expect((await t.runtime.storage.devices.findByHash(hash))?.interval).toBe(
      10,
    );
    advance(6000); // on time for the old 5 s, too soon for the grown 10 s
    expect((await poll(device_code)).json().error).toBe('slow_down');
    expect((await t.runtime.storage.devices.findByHash(hash))?.interval).toBe(
      15,
    );
    advance(15_000);
    expect((await poll(device_code)).json().error).toBe(
      'authorization_pending',
    );
    expect((await t.runtime.storage.devices.findByHash(hash))?.interval).toBe(
      15,
    );
    advance(15_000);
    expect((await poll(device_code)).json().error).toBe(
      'authorization_pending',
    );
  });

  it('denied, unknown and malformed device codes', async () => {
    const { device_code, user_code } = await start();
    const denied = await approve(user_code, alice.token, true);
    expect([denied.statusCode, denied.json().data.client_id]).toEqual([
      200,
      'account-center',
    ]);
    expect(
      (await t.runtime.storage.audit.list({ action: 'device.deny' }, 0, 10))
        .total,
    ).toBeGreaterThan(0);
    const res = await poll(device_code);
    expect([res.statusCode, res.json()]).toEqual([
      400,
      failure('access_denied', '用户拒绝了授权'),
    ]);
    expect((await approve(user_code)).json()).toEqual({
      ok: false,
      msg: '设备码无效或已过期',
    });

    expect((await poll('x'.repeat(43))).json()).toEqual(
      failure('expired_token', '设备码无效或已过期'),
    );
    expect((await poll('')).json().error).toBe('expired_token');
    const wrongType = await poll(12345);
    expect([wrongType.statusCode, wrongType.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：device_code' },
    ]);
    const missing = await t.post('/api/v1/auth/device/poll', {});
    expect([missing.statusCode, missing.json().msg]).toEqual([
      400,
      '参数错误：device_code',
    ]);
  });

  it('refuses a token once the app is disabled, or the approving user is banned', async () => {
    const clientId = await createApp();
    const a = await start(clientId);
    await approve(a.user_code);
    await disableApp(clientId);
    const disabled = await poll(a.device_code);
    expect([disabled.statusCode, disabled.json()]).toEqual([
      403,
      { ok: false, msg: '该应用已被停用', error: 'access_denied' },
    ]);
    const b = await start(await createApp());
    await disableApp(
      (await t.runtime.storage.devices.findByHash(sha256Hex(b.device_code)))!
        .clientId,
    );
    expect((await approve(b.user_code)).json()).toEqual({
      ok: false,
      msg: '该应用已被停用',
    });

    const bob = await t.register();
    const c = await start();
    await approve(c.user_code, bob.token);
    await t.runtime.services.admin.setBanned(bob.username, true, 'test');
    const banned = await poll(c.device_code);
    expect([banned.statusCode, banned.json().msg]).toEqual([
      403,
      '账号已被封禁',
    ]);
  });
});
