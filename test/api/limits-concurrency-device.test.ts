import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import {
  countBy,
  from,
  parallel,
  RATE_LIMITED,
  limitedApps,
} from './limits-concurrency-setup.js';

/**
 * Every limit counts a try before it judges it (docs/api.md §1): N parallel tries never get
 * more checks than the limit, on SQLite and on PostgreSQL. Each test fires 50+ requests at once.
 */
const AUTH = '/api/v1/auth';
const limitedApp = limitedApps();

describe('device login under concurrency', () => {
  it('100 parallel wrong approvals: 10 are checked, 90 get 429, then even the right code waits', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    const started = (await app.post(`${AUTH}/device/start`, {})).json().data;
    const wrong = (i: number) => {
      const c = String(
        (Number(started.user_code) + 1 + i) % 1_000_000,
      ).padStart(6, '0');
      return c;
    };
    const res = await parallel(100, (i) =>
      app.post(`${AUTH}/device/approve`, { user_code: wrong(i) }, u.token),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 400: 10, 429: 90 });
    expect(
      (
        await app.post(
          `${AUTH}/device/approve`,
          { user_code: started.user_code },
          u.token,
        )
      ).statusCode,
    ).toBe(429);
    expect(
      (
        await app.post(
          `${AUTH}/device/inspect`,
          { user_code: started.user_code },
          u.token,
        )
      ).statusCode,
    ).toBe(429);
  });

  it('inspect shares the wrong-code budget: 60 parallel wrong look-ups get 10 answers', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    const res = await parallel(60, (i) =>
      app.post(
        `${AUTH}/device/inspect`,
        { user_code: String(100000 + i) },
        u.token,
      ),
    );
    const statuses = countBy(res.map((r) => r.statusCode));
    // A random live code of another test could be hit; it would answer 200 and give its try back.
    expect(statuses[400]! + (statuses[200] ?? 0)).toBeGreaterThanOrEqual(10);
    expect(statuses[429]).toBe(60 - statuses[400]! - (statuses[200] ?? 0));
    expect(statuses[400]).toBeLessThanOrEqual(10);
  });

  it('right codes give their try back: a user approves 30 devices one after another', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    const codes = await parallel(
      30,
      async () =>
        (await app.post(`${AUTH}/device/start`, {})).json().data
          .user_code as string,
    );
    for (const userCode of codes) {
      expect(
        (
          await app.post(
            `${AUTH}/device/inspect`,
            { user_code: userCode },
            u.token,
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await app.post(
            `${AUTH}/device/approve`,
            { user_code: userCode },
            u.token,
          )
        ).statusCode,
      ).toBe(200);
    }
  });

  it('device/start per address: 50 parallel starts against a limit of 5', async () => {
    const app = await limitedApp({ LIMIT_DEVICE_START_IP: '5/60' });
    const res = await parallel(50, () =>
      app.post(`${AUTH}/device/start`, {}, undefined, from('10.23.0.1')),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 200: 5, 429: 45 });
    expect(
      (await app.post(`${AUTH}/device/start`, {}, undefined, from('10.23.0.2')))
        .statusCode,
    ).toBe(200);
  });

  it('polls with unknown device codes are limited per address; known codes do not count', async () => {
    const app = await limitedApp({ LIMIT_DEVICE_POLL_UNKNOWN_IP: '10/300' });
    const started = (
      await app.post(`${AUTH}/device/start`, {}, undefined, from('10.24.0.9'))
    ).json().data;
    for (let i = 0; i < 20; i++) {
      const known = await app.post(
        `${AUTH}/device/poll`,
        { device_code: started.device_code },
        undefined,
        from('10.24.0.1'),
      );
      expect([known.statusCode, known.json().error]).toEqual([
        400,
        i === 0 ? 'authorization_pending' : 'slow_down',
      ]);
    }
    const unknown = await parallel(50, (i) =>
      app.post(
        `${AUTH}/device/poll`,
        { device_code: `no-such-device-code-${i}-xxxxxxxxxxxx` },
        undefined,
        from('10.24.0.1'),
      ),
    );
    expect(countBy(unknown.map((r) => r.statusCode))).toEqual({
      400: 10,
      429: 40,
    });
    expect(unknown.find((r) => r.statusCode === 429)?.json()).toEqual({
      ...RATE_LIMITED,
      error: 'slow_down',
    });
    expect(unknown.find((r) => r.statusCode === 400)?.json()).toMatchObject({
      error: 'expired_token',
    });
    // Another address is not affected.
    expect(
      (
        await app.post(
          `${AUTH}/device/poll`,
          { device_code: 'another-unknown-code-xxxxxxxxxxxxx' },
          undefined,
          from('10.24.0.2'),
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('code exchange: failures never lock the client out (docs/api.md §5)', () => {
  async function client(app: TestApp) {
    const owner = await app.register();
    const created = await app.post(
      `${AUTH}/apps`,
      { display_name: 'Exchanger', redirect_uris: ['https://example.com/cb'] },
      owner.token,
    );
    const { client_id, client_secret } = created.json().data as {
      client_id: string;
      client_secret: string;
    };
    const code = async () =>
      (
        await app.post(
          `${AUTH}/authorize`,
          { client_id, redirect_uri: 'https://example.com/cb' },
          owner.token,
        )
      ).json().data.code as string;
    const exchange = (secret: string, c: string, ip: string) =>
      app.post(
        `${AUTH}/exchange`,
        { client_id, client_secret: secret, code: c },
        undefined,
        from(ip),
      );
    return { client_secret, code, exchange };
  }

  it('230 wrong-secret exchanges from one address; the back end, from another address and from the same, still exchanges', async () => {
    const app = await limitedApp();
    const c = await client(app);
    const someCode = await c.code();
    const flood = await parallel(230, () =>
      c.exchange(
        'wrong-secret-wrong-secret-wrong-secret-xx',
        someCode,
        '10.30.0.1',
      ),
    );
    expect(flood.every((r) => [401, 429].includes(r.statusCode))).toBe(true);
    expect(
      flood.filter((r) => r.statusCode === 401).length,
    ).toBeLessThanOrEqual(20);
    const backEnd = await c.exchange(
      c.client_secret,
      await c.code(),
      '10.30.0.2',
    );
    expect(backEnd.statusCode, backEnd.body).toBe(200);
    const sameAddress = await c.exchange(
      c.client_secret,
      await c.code(),
      '10.30.0.1',
    );
    expect(sameAddress.statusCode, sameAddress.body).toBe(200);
  });

  it('50 parallel exchanges of one code: one token, 49 answers 授权码已被使用, never 429', async () => {
    const app = await limitedApp({ LIMIT_EXCHANGE_PAIR: '5/300' });
    const c = await client(app);
    const code = await c.code();
    const res = await parallel(50, () =>
      c.exchange(c.client_secret, code, '10.31.0.1'),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 200: 1, 400: 49 });
    expect(
      new Set(res.filter((r) => r.statusCode === 400).map((r) => r.json().msg)),
    ).toEqual(new Set(['授权码已被使用']));
  });

  it('parallel failures past the limit get 429 instead of details: 60 wrong secrets against a pair limit of 20', async () => {
    const app = await limitedApp({ LIMIT_EXCHANGE_PAIR: '20/300' });
    const c = await client(app);
    const code = await c.code();
    const res = await parallel(60, () =>
      c.exchange(
        'wrong-secret-wrong-secret-wrong-secret-xx',
        code,
        '10.32.0.1',
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 401: 20, 429: 40 });
    expect(
      (await c.exchange(c.client_secret, code, '10.32.0.1')).statusCode,
    ).toBe(200);
  });
});
