import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { testClock } from '../helpers/clock.js';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';

const RATE_LIMITED = { ok: false, msg: '请求过于频繁，请稍后再试' };
const from = (ip: string) => ({ 'x-forwarded-for': ip });

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A test app with per-IP limits on, client addresses taken from X-Forwarded-For, and a hand-driven clock. */
async function limitedApp(env: Record<string, string> = {}) {
  const clock = testClock();
  onTestFinished(() => clock.restore());
  t = await createTestApp(
    { IP_RATE_LIMITS: 'on', TRUST_PROXY: 'true', ...env },
    { now: () => clock.now },
  );
  return { app: t, clock };
}

describe('send_code', () => {
  it('limits codes per e-mail beyond the 60 s rule, always', async () => {
    const { app, clock } = await limitedApp({
      IP_RATE_LIMITS: 'off',
      LIMIT_SEND_CODE_EMAIL: '3/3600',
    });
    const email = `${uniqueName()}@example.com`;
    const send = () =>
      app.post('/api/v1/auth/send_code', { email, purpose: 'register' });
    for (let i = 0; i < 3; i++) {
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(429); // the 60 s rule
      clock.now += 61_000;
    }
    const fourth = await send();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual(RATE_LIMITED);
    clock.now += 3600_000;
    expect((await send()).statusCode).toBe(200);
  });

  it('limits codes per address, only while IP_RATE_LIMITS is on', async () => {
    const { app } = await limitedApp({ LIMIT_SEND_CODE_IP: '2/3600' });
    const send = (ip: string) =>
      app.post(
        '/api/v1/auth/send_code',
        { email: `${uniqueName()}@example.com`, purpose: 'login' },
        undefined,
        from(ip),
      );
    expect((await send('10.6.0.1')).statusCode).toBe(200);
    expect((await send('10.6.0.1')).statusCode).toBe(200);
    expect((await send('10.6.0.1')).json()).toEqual(RATE_LIMITED);
    expect((await send('10.6.0.2')).statusCode).toBe(200);
  });
});

describe('register', () => {
  it('limits accounts created per address, only while IP_RATE_LIMITS is on', async () => {
    const { app } = await limitedApp({ LIMIT_REGISTER_IP: '2/3600' });
    const reg = (ip: string) => {
      const username = uniqueName();
      return app.post(
        '/api/v1/auth/register',
        {
          username,
          password: 'correct horse battery',
          email: `${username}@example.com`,
        },
        undefined,
        from(ip),
      );
    };
    expect((await reg('10.7.0.1')).statusCode).toBe(200);
    expect((await reg('10.7.0.1')).statusCode).toBe(200);
    const third = await reg('10.7.0.1');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual(RATE_LIMITED);
    expect((await reg('10.7.0.2')).statusCode).toBe(200);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored (an attacker cannot pick a fresh address)', async () => {
    const clock = { now: Date.now() };
    t = await createTestApp(
      { IP_RATE_LIMITS: 'on', LIMIT_REGISTER_IP: '1/3600' },
      { now: () => clock.now },
    );
    const reg = (ip: string) => {
      const username = uniqueName();
      return t!.post(
        '/api/v1/auth/register',
        {
          username,
          password: 'correct horse battery',
          email: `${username}@example.com`,
        },
        undefined,
        from(ip),
      );
    };
    expect((await reg('10.8.0.1')).statusCode).toBe(200);
    expect((await reg('10.8.0.2')).statusCode).toBe(429);
  });
});

describe('exchange', () => {
  async function setup(env: Record<string, string>) {
    const { app } = await limitedApp(env);
    const owner = await app.register();
    const created = await app.post(
      '/api/v1/auth/apps',
      { display_name: 'Limited', redirect_uris: ['https://example.com/cb'] },
      owner.token,
    );
    expect(created.statusCode).toBe(200);
    const { client_id, client_secret } = created.json().data;
    const code = async () => {
      const res = await app.post(
        '/api/v1/auth/authorize',
        { client_id, redirect_uri: 'https://example.com/cb', state: 's' },
        owner.token,
      );
      return res.json().data.code as string;
    };
    const exchange = async (secret: string, ip: string, c?: string) =>
      app.post(
        '/api/v1/auth/exchange',
        { client_id, client_secret: secret, code: c ?? (await code()) },
        undefined,
        from(ip),
      );
    return { client_secret: client_secret as string, exchange };
  }

  // docs/api.md §5: failures may be slowed down, but a valid code with the valid secret is never
  // refused because of earlier failures, from any address.
  it("answers a (client, address) pair's failures 429 after repeated failures; valid exchanges always pass", async () => {
    const { client_secret, exchange } = await setup({
      LIMIT_EXCHANGE_PAIR: '3/300',
      IP_RATE_LIMITS: 'off',
    });
    for (let i = 0; i < 3; i++)
      expect((await exchange('wrong-secret', '10.9.0.1')).statusCode).toBe(401);
    const blocked = await exchange('wrong-secret', '10.9.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(RATE_LIMITED);
    expect((await exchange(client_secret, '10.9.0.1')).statusCode).toBe(200);
    expect((await exchange(client_secret, '10.9.0.2')).statusCode).toBe(200);
  });

  it('a per-client ceiling stops a distributed guesser getting answers; one address cannot reach it alone', async () => {
    const { client_secret, exchange } = await setup({
      LIMIT_EXCHANGE_PAIR: '2/300',
      LIMIT_EXCHANGE_CLIENT: '5/300',
      IP_RATE_LIMITS: 'off',
    });
    for (let i = 0; i < 10; i++) await exchange('wrong-secret', '10.9.1.1');
    expect((await exchange('wrong-secret', '10.9.1.2')).statusCode).toBe(401);
    expect((await exchange(client_secret, '10.9.1.2')).statusCode).toBe(200);
    for (const ip of ['10.9.1.3', '10.9.1.4'])
      for (let i = 0; i < 2; i++) await exchange('wrong-secret', ip);
    expect((await exchange('wrong-secret', '10.9.1.99')).statusCode).toBe(429);
    expect((await exchange(client_secret, '10.9.1.99')).statusCode).toBe(200);
  });

  it('limits failed exchanges per address only while IP_RATE_LIMITS is on', async () => {
    const { exchange } = await setup({ LIMIT_EXCHANGE_IP: '2/300' });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await exchange('wrong-secret', '10.9.2.1', 'no-such-code')).statusCode,
      );
    expect(statuses).toEqual([401, 401, 429]);
  });
});
