import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { DEFAULT_LIMITS } from '../../src/features/limits/policy.js';
import { testClock } from '../helpers/clock.js';
import {
  createTestApp,
  TEST_SECRET,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';

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

const login = (app: TestApp, username: string, password: string, ip: string) =>
  app.post('/api/v1/auth/login', { username, password }, undefined, from(ip));

describe('configuration', () => {
  it('has sensible defaults and reads LIMIT_<NAME>=max/seconds', () => {
    const base = { JWT_SECRET: TEST_SECRET, DATABASE_URL: 'sqlite::memory:' };
    expect(loadConfig(base).config.limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS.loginPair).toEqual({ max: 10, windowS: 900 });
    expect(
      loadConfig({ ...base, LIMIT_LOGIN_PAIR: '3/60' }).config.limits.loginPair,
    ).toEqual({ max: 3, windowS: 60 });
    expect(() => loadConfig({ ...base, LIMIT_LOGIN_PAIR: 'ten' })).toThrow(
      /LIMIT_LOGIN_PAIR/,
    );
    expect(() => loadConfig({ ...base, LIMIT_REGISTER_IP: '0/60' })).toThrow(
      /LIMIT_REGISTER_IP/,
    );
  });
});

describe('password sign-in', () => {
  it('blocks an (account, address) pair after 10 failures, even for the right password, until the window ends', async () => {
    const { app, clock } = await limitedApp();
    const u = await app.register();
    for (let i = 0; i < 10; i++)
      expect(
        (await login(app, u.username, 'wrong password!', '10.0.0.1'))
          .statusCode,
      ).toBe(401);
    const blocked = await login(app, u.username, u.password, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(RATE_LIMITED);
    // The owner, from their own address, is not locked out by the attacker.
    expect(
      (await login(app, u.username, u.password, '10.0.0.2')).statusCode,
    ).toBe(200);
    // The e-mail form of the name shares the account's counter.
    expect((await login(app, u.email, u.password, '10.0.0.1')).statusCode).toBe(
      429,
    );
    clock.now += 15 * 60 * 1000 + 1;
    expect(
      (await login(app, u.username, u.password, '10.0.0.1')).statusCode,
    ).toBe(200);
  });

  it('a success resets the pair counter', async () => {
    const { app } = await limitedApp();
    const u = await app.register();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++)
        expect(
          (await login(app, u.username, 'wrong password!', '10.0.0.3'))
            .statusCode,
        ).toBe(401);
      expect(
        (await login(app, u.username, u.password, '10.0.0.3')).statusCode,
      ).toBe(200);
    }
  });

  it('one address cannot push an account to its ceiling; many addresses can', async () => {
    const { app } = await limitedApp({
      LIMIT_LOGIN_PAIR: '2/900',
      LIMIT_LOGIN_ACCOUNT: '5/900',
    });
    const u = await app.register();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push(
        (await login(app, u.username, 'wrong password!', '10.1.0.1'))
          .statusCode,
      );
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(new Set(statuses.slice(2))).toEqual(new Set([429]));
    expect(
      (await login(app, u.username, u.password, '10.1.0.2')).statusCode,
    ).toBe(200);
    // A distributed guesser reaches the per-account ceiling: then every address waits.
    for (let ip = 3; ip < 6; ip++) {
      for (let i = 0; i < 2; i++)
        await login(app, u.username, 'wrong password!', `10.1.0.${ip}`);
    }
    const ceiling = await login(app, u.username, u.password, '10.1.0.99');
    expect(ceiling.statusCode).toBe(429);
  });

  it('unknown accounts are throttled exactly like known ones (no enumeration)', async () => {
    const { app } = await limitedApp({ LIMIT_LOGIN_PAIR: '2/900' });
    const u = await app.register();
    const ghost = uniqueName('ghost');
    const known = [];
    const unknown = [];
    for (let i = 0; i < 3; i++) {
      known.push(
        (await login(app, u.username, 'wrong password!', '10.2.0.1')).json(),
      );
      unknown.push(
        (await login(app, ghost, 'wrong password!', '10.2.0.1')).json(),
      );
    }
    expect(unknown).toEqual(known);
    expect(known[2]).toEqual(RATE_LIMITED);
  });

  it('limits failures per address across accounts, only while IP_RATE_LIMITS is on', async () => {
    const run = async (env: Record<string, string>) => {
      const { app } = await limitedApp({ LIMIT_LOGIN_IP: '3/900', ...env });
      const out: number[] = [];
      for (let i = 0; i < 5; i++)
        out.push(
          (
            await login(
              app,
              uniqueName('nobody'),
              'wrong password!',
              '10.3.0.1',
            )
          ).statusCode,
        );
      out.push(
        (await login(app, uniqueName('nobody'), 'wrong password!', '10.3.0.2'))
          .statusCode,
      );
      await t?.close();
      t = undefined;
      return out;
    };
    expect(await run({})).toEqual([401, 401, 401, 429, 429, 401]);
    expect(await run({ IP_RATE_LIMITS: 'off' })).toEqual([
      401, 401, 401, 401, 401, 401,
    ]);
  });

  it('per-account limits still apply with IP_RATE_LIMITS=off', async () => {
    const { app } = await limitedApp({
      IP_RATE_LIMITS: 'off',
      LIMIT_LOGIN_PAIR: '2/900',
    });
    const u = await app.register();
    await login(app, u.username, 'wrong password!', '10.4.0.1');
    await login(app, u.username, 'wrong password!', '10.4.0.1');
    expect(
      (await login(app, u.username, u.password, '10.4.0.1')).statusCode,
    ).toBe(429);
  });

  it('concurrent guesses from one address do not overshoot the pair limit', async () => {
    const { app } = await limitedApp({ LIMIT_LOGIN_PAIR: '3/900' });
    const u = await app.register();
    const all = await Promise.all(
      Array.from({ length: 12 }, () =>
        login(app, u.username, 'wrong password!', '10.5.0.1'),
      ),
    );
    expect(all.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(all.filter((r) => r.statusCode === 429)).toHaveLength(9);
  });
});
