import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/platform/crypto/random.js';
import { testClock } from '../helpers/clock.js';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
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

describe('device/approve', () => {
  it('needs a first-party token and a string user_code', async () => {
    const { user_code } = await start();
    expect(
      (await t.post('/api/v1/auth/device/approve', { user_code })).statusCode,
    ).toBe(401);
    const game = (
      await t.post('/api/v1/auth/game_token', undefined, alice.token)
    ).json().access_token;
    const third = await approve(user_code, game);
    expect([third.statusCode, third.json()]).toEqual([
      403,
      { ok: false, msg: '该令牌无权访问此接口' },
    ]);
    expect((await approve(123456)).json()).toEqual({
      ok: false,
      msg: '参数错误：user_code',
    });
    expect(
      (await t.post('/api/v1/auth/device/approve', {}, alice.token)).json().msg,
    ).toBe('参数错误：user_code');
    expect(
      (
        await t.post(
          '/api/v1/auth/device/approve',
          { user_code, deny: 'yes' },
          alice.token,
        )
      ).json().msg,
    ).toBe('参数错误：deny');
    // Still pending after all of that; typed with a space it is accepted.
    const ok = await approve(`${user_code.slice(0, 3)} ${user_code.slice(3)}`);
    expect(ok.statusCode).toBe(200);
    expect((await approve(user_code)).json()).toEqual({
      ok: false,
      msg: '设备码无效或已过期',
    });
  });

  it('more than 10 wrong codes in 10 minutes → 429, even for a correct code', async () => {
    const carol = await t.register();
    const { user_code, device_code } = await start();
    const wrong = user_code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 10; i++) {
      const res = await approve(i % 2 ? wrong : 'nope', carol.token);
      expect([res.statusCode, res.json().msg]).toEqual([
        400,
        '设备码无效或已过期',
      ]);
    }
    const limited = await approve(wrong, carol.token);
    expect([limited.statusCode, limited.json()]).toEqual([
      429,
      { ok: false, msg: '请求过于频繁，请稍后再试' },
    ]);
    expect((await approve(user_code, carol.token)).statusCode).toBe(429);
    expect((await poll(device_code)).json().error).toBe(
      'authorization_pending',
    );
    // Another user is not affected.
    const other = await start();
    expect((await approve(other.user_code)).statusCode).toBe(200);
    advance(10 * 60 * 1000 + 1000);
    const fresh = await start();
    expect((await approve(fresh.user_code, carol.token)).statusCode).toBe(200);
  });
});

describe('per-address limit on start', () => {
  it('with IP_RATE_LIMITS on, more than 30 starts a minute from one address → 429', async () => {
    const limited = await createTestApp({ IP_RATE_LIMITS: 'on' });
    try {
      const statuses = [];
      for (let i = 0; i < 31; i++)
        statuses.push(
          (await limited.post('/api/v1/auth/device/start')).statusCode,
        );
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('device code lifetime', () => {
  it('DEVICE_CODE_TTL=1: a code past its lifetime can neither be approved nor polled', async () => {
    let now = Date.now();
    const short = await createTestApp(
      { DEVICE_CODE_TTL: '1' },
      { now: () => now },
    );
    try {
      const u = await short.register();
      const a = (await short.post('/api/v1/auth/device/start')).json().data;
      const b = (await short.post('/api/v1/auth/device/start')).json().data;
      expect(a.expires_in).toBe(1);
      await short.post(
        '/api/v1/auth/device/approve',
        { user_code: b.user_code },
        u.token,
      );
      now += 1001;
      const expired = {
        ok: false,
        msg: '设备码无效或已过期',
        error: 'expired_token',
      };
      expect(
        (
          await short.post('/api/v1/auth/device/poll', {
            device_code: a.device_code,
          })
        ).json(),
      ).toEqual(expired);
      expect(
        (
          await short.post('/api/v1/auth/device/poll', {
            device_code: b.device_code,
          })
        ).json(),
      ).toEqual(expired);
      const late = await short.post(
        '/api/v1/auth/device/approve',
        { user_code: a.user_code },
        u.token,
      );
      expect([late.statusCode, late.json().msg]).toEqual([
        400,
        '设备码无效或已过期',
      ]);
      // Dead rows are dropped by a later start and keep answering the same way.
      now += 60_000;
      await short.post('/api/v1/auth/device/start');
      expect(
        await short.runtime.storage.devices.findByHash(
          sha256Hex(a.device_code),
        ),
      ).toBeUndefined();
      expect(
        (
          await short.post('/api/v1/auth/device/poll', {
            device_code: a.device_code,
          })
        ).json(),
      ).toEqual(expired);
    } finally {
      await short.close();
    }
  });
});
