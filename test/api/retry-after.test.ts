import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { testClock } from '../helpers/clock.js';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';

/** Every 429 says, in whole seconds, when the exhausted limit lets the client in again. */
const RATE_LIMITED = { ok: false, msg: '请求过于频繁，请稍后再试' };
const from = (ip: string) => ({ 'x-forwarded-for': ip });

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function limitedApp(env: Record<string, string>) {
  const clock = testClock();
  onTestFinished(() => clock.restore());
  t = await createTestApp(
    { IP_RATE_LIMITS: 'on', TRUST_PROXY: 'true', ...env },
    { now: () => clock.now },
  );
  return { app: t, clock };
}

function retryAfter(res: { headers: Record<string, unknown> }): number {
  const value = res.headers['retry-after'];
  expect(value).toMatch(/^[1-9]\d*$/);
  return Number(value);
}

describe('Retry-After on 429', () => {
  it("a blocked sign-in is told the rest of the rule's window, counting down with the clock", async () => {
    const { app, clock } = await limitedApp({ LIMIT_LOGIN_PAIR: '3/600' });
    const u = await app.register();
    const login = () =>
      app.post(
        '/api/v1/auth/login',
        { username: u.username, password: 'wrong password!' },
        undefined,
        from('10.1.0.1'),
      );
    for (let i = 0; i < 3; i++) expect((await login()).statusCode).toBe(401);
    const blocked = await login();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(RATE_LIMITED);
    expect(retryAfter(blocked)).toBeLessThanOrEqual(600);
    expect(retryAfter(blocked)).toBeGreaterThanOrEqual(599);

    clock.now += 400_000;
    const later = await login();
    expect(later.statusCode).toBe(429);
    expect(retryAfter(later)).toBeLessThanOrEqual(200);
    expect(retryAfter(later)).toBeGreaterThanOrEqual(199);
    // Over the limit until the window ends, then in again.
    clock.now += 200_001;
    expect((await login()).statusCode).toBe(401);
  });

  it('the 60 s resend rule of send_code says how much of the minute is left', async () => {
    const { app, clock } = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const email = `${uniqueName()}@example.com`;
    const send = () =>
      app.post('/api/v1/auth/send_code', { email, purpose: 'register' });
    expect((await send()).statusCode).toBe(200);
    clock.now += 45_000;
    const again = await send();
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual(RATE_LIMITED);
    expect(retryAfter(again)).toBeLessThanOrEqual(15);
  });

  it("the OpenID Connect token endpoint's 429 carries it too", async () => {
    const { app } = await limitedApp({
      LIMIT_EXCHANGE_PAIR: '2/300',
      IP_RATE_LIMITS: 'off',
    });
    const owner = await app.register();
    const created = await app.post(
      '/api/v1/auth/apps',
      { display_name: 'Limited', redirect_uris: ['https://example.com/cb'] },
      owner.token,
    );
    const { client_id } = created.json().data;
    const token = () =>
      app.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...from('10.2.0.1'),
        },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'not-a-code',
          redirect_uri: 'https://example.com/cb',
          client_id,
          client_secret: 'wrong-secret',
        }).toString(),
      });
    for (let i = 0; i < 2; i++)
      expect((await token()).statusCode).not.toBe(429);
    const blocked = await token();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('invalid_request');
    expect(retryAfter(blocked)).toBeLessThanOrEqual(300);
  });

  it("the seed code exchange's 429 carries it too (refused after the exchange ran)", async () => {
    const { app } = await limitedApp({ LIMIT_EXCHANGE_IP: '1/120' });
    const owner = await app.register();
    const created = await app.post(
      '/api/v1/auth/apps',
      { display_name: 'Limited', redirect_uris: ['https://example.com/cb'] },
      owner.token,
    );
    const { client_id } = created.json().data;
    const exchange = () =>
      app.post(
        '/api/v1/auth/exchange',
        { client_id, client_secret: 'wrong-secret', code: 'not-a-code' },
        undefined,
        from('10.3.0.1'),
      );
    expect((await exchange()).statusCode).toBe(401);
    const blocked = await exchange();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(RATE_LIMITED);
    expect(retryAfter(blocked)).toBeLessThanOrEqual(120);
  });
});
