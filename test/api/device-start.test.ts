import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/platform/crypto/random.js';
import { testClock } from '../helpers/clock.js';
import { uniqueName, type TestApp, type TestUser } from '../helpers/app.js';
import { deviceRequests, startDeviceApp } from './device-setup.js';

/** A clock the tests move by hand, so polling intervals and windows need no real waiting. */
const clock = testClock();
let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  ({ t, alice } = await startDeviceApp(() => clock.now));
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

const { start } = deviceRequests(() => ({ t, alice }));

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

describe('device/start', () => {
  it('issues a device code, a 6-digit user code and where to approve it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/device/start',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { ok, data } = res.json();
    expect(ok).toBe(true);
    expect(Object.keys(data).sort()).toEqual([
      'device_code',
      'expires_in',
      'interval',
      'user_code',
      'verification_uri',
      'verification_uri_complete',
    ]);
    expect(data.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.user_code).toMatch(/^\d{6}$/);
    expect(data.verification_uri).toBe('https://id.example.com/device');
    expect(data.verification_uri_complete).toBe(
      `https://id.example.com/device?user_code=${data.user_code}`,
    );
    expect([data.expires_in, data.interval]).toEqual([600, 5]);
    // Stored only as a hash, for the center itself.
    expect(
      await t.runtime.storage.devices.findByHash(data.device_code),
    ).toBeUndefined();
    const row = await t.runtime.storage.devices.findByHash(
      sha256Hex(data.device_code),
    );
    expect([row?.clientId, row?.status, row?.userCode]).toEqual([
      'account-center',
      'pending',
      data.user_code,
    ]);
  });

  it('accepts the game, registered apps; refuses unknown and disabled ones', async () => {
    expect((await start('game')).user_code).toMatch(/^\d{6}$/);
    expect((await start(await createApp())).user_code).toMatch(/^\d{6}$/);
    const unknown = await t.post('/api/v1/auth/device/start', {
      client_id: 'no-such-app',
    });
    expect([unknown.statusCode, unknown.json()]).toEqual([
      404,
      { ok: false, msg: '未知的应用' },
    ]);
    const disabled = await t.post('/api/v1/auth/device/start', {
      client_id: await createApp('disabled'),
    });
    expect([disabled.statusCode, disabled.json()]).toEqual([
      403,
      { ok: false, msg: '该应用已被停用' },
    ]);
    const badType = await t.post('/api/v1/auth/device/start', { client_id: 7 });
    expect([badType.statusCode, badType.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：client_id' },
    ]);
  });

  it('live user codes are unique', async () => {
    const codes = await Promise.all(Array.from({ length: 40 }, () => start()));
    expect(new Set(codes.map((c) => c.user_code)).size).toBe(40);
  });
});
