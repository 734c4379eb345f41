import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/app.js';
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

describe('e-mail code tries under concurrency', () => {
  it('60 parallel login_by_code guesses, the real code last, get 5 comparisons and no sign-in', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    expect(
      (
        await app.post(`${AUTH}/send_code`, {
          email: u.email,
          purpose: 'login',
        })
      ).statusCode,
    ).toBe(200);
    const code = await app.smtp.codeFor(u.email);
    const wrong = (i: number) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const res = await parallel(60, (i) =>
      app.post(`${AUTH}/login_by_code`, {
        email: u.email,
        code: i === 59 ? code : wrong(i),
      }),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 400: 60 });
    const row = await app.runtime.storage.emailCodes.findLatest(
      u.email,
      'login',
      Date.now(),
    );
    expect(row?.attempts).toBe(5);
    // Out of tries: the real code no longer works either.
    expect(
      (await app.post(`${AUTH}/login_by_code`, { email: u.email, code }))
        .statusCode,
    ).toBe(400);
  });

  it('300 parallel reset_password guesses count exactly 5 tries', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    await app.post(`${AUTH}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await app.smtp.codeFor(u.email);
    const res = await parallel(300, (i) =>
      app.post(`${AUTH}/reset_password`, {
        email: u.email,
        code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
        new_password: 'another good password',
      }),
    );
    expect(res.every((r) => r.statusCode === 400)).toBe(true);
    expect(
      (
        await app.runtime.storage.emailCodes.findLatest(
          u.email,
          'reset_password',
          Date.now(),
        )
      )?.attempts,
    ).toBe(5);
  });
});

describe('send_code under concurrency', () => {
  it('50 parallel sends to one address: one code is sent, the others wait out the minute', async () => {
    const app = await limitedApp({ IP_RATE_LIMITS: 'off' });
    const u = await app.register();
    const res = await parallel(50, () =>
      app.post(`${AUTH}/send_code`, { email: u.email, purpose: 'login' }),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 200: 1, 429: 49 });
    await app.smtp.codeFor(u.email);
    await app.mailSent();
    expect(app.smtp.countTo(u.email)).toBe(1);
  });
});

describe('password sign-in under concurrency', () => {
  it('the per-address limit: 60 parallel failures against a limit of 20 get 20 password checks', async () => {
    const app = await limitedApp({ LIMIT_LOGIN_IP: '20/900' });
    const res = await parallel(60, () =>
      app.post(
        `${AUTH}/login`,
        { username: uniqueName('nobody'), password: 'wrong password!' },
        undefined,
        from('10.20.0.1'),
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 401: 20, 429: 40 });
    expect(res.find((r) => r.statusCode === 429)?.json()).toEqual(RATE_LIMITED);
  });

  it('the per-account ceiling: 50 parallel failures from 50 addresses against a ceiling of 10', async () => {
    const app = await limitedApp({ LIMIT_LOGIN_ACCOUNT: '10/900' });
    const u = await app.register();
    const res = await parallel(50, (i) =>
      app.post(
        `${AUTH}/login`,
        { username: u.username, password: 'wrong password!' },
        undefined,
        from(`10.21.0.${i + 1}`),
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 40 });
  });

  it('successful sign-ins give their try back: 30 right passwords from one address pass limits of 10', async () => {
    const app = await limitedApp({
      LIMIT_LOGIN_IP: '10/900',
      LIMIT_LOGIN_PAIR: '10/900',
      LIMIT_LOGIN_ACCOUNT: '10/900',
    });
    const u = await app.register();
    for (let i = 0; i < 30; i++) {
      expect(
        (
          await app.post(
            `${AUTH}/login`,
            { username: u.username, password: u.password },
            undefined,
            from('10.22.0.1'),
          )
        ).statusCode,
      ).toBe(200);
    }
  });
});
