import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';

/**
 * The account endpoints that take a password or a code count every try before they check it:
 * 50+ parallel requests never get more checks than the rule, on SQLite and PostgreSQL.
 */
const ACC = '/api/v1/auth/account';
const parallel = <T>(n: number, run: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => run(i)));
const countBy = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => {
    acc[s] = (acc[s] ?? 0) + 1;
    return acc;
  }, {});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('account limits under concurrency', () => {
  it('60 parallel wrong current passwords: 10 are checked, 50 refused 429, and the right one then too', async () => {
    t = await createTestApp({ LIMIT_ACCOUNT_PASSWORD: '10/900' });
    const u = await t.register();
    const res = await parallel(60, (i) =>
      t!.post(
        `${ACC}/password`,
        {
          current_password: `wrong guess ${i}`,
          new_password: 'brand new password',
        },
        u.token,
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 50 });
    expect(
      (
        await t.post(
          `${ACC}/password`,
          { current_password: u.password, new_password: 'brand new password' },
          u.token,
        )
      ).statusCode,
    ).toBe(429);
  });

  it('55 parallel delete requests with wrong passwords share the same rule', async () => {
    t = await createTestApp({ LIMIT_ACCOUNT_PASSWORD: '10/900' });
    const u = await t.register();
    const res = await parallel(55, (i) =>
      t!.post(`${ACC}/delete`, { password: `wrong guess ${i}` }, u.token),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 45 });
    expect((await t.get('/api/v1/auth/me', u.token)).statusCode).toBe(200);
  });

  it('60 parallel change-email guesses, the real code last, get 5 comparisons and no change', async () => {
    t = await createTestApp();
    const u = await t.register();
    const next = `${uniqueName('n')}@example.org`;
    expect(
      (
        await t.post(
          `${ACC}/email/send_code`,
          { email: next, current_password: u.password },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const code = await t.smtp.codeFor(next);
    const wrong = (i: number) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const res = await parallel(60, (i) =>
      t!.post(
        `${ACC}/email`,
        { email: next, code: i === 59 ? code : wrong(i) },
        u.token,
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 400: 60 });
    expect(
      (
        await t.runtime.storage.emailCodes.findLatest(
          next,
          'change_email',
          Date.now(),
        )
      )?.attempts,
    ).toBe(5);
    expect((await t.get('/api/v1/auth/me', u.token)).json().data.email).toBe(
      u.email,
    );
  });

  it('60 parallel change-email sends to one address: one mail a minute', async () => {
    t = await createTestApp();
    const users = await parallel(3, () => t!.register());
    const next = `${uniqueName('n')}@example.org`;
    const res = await parallel(60, (i) =>
      t!.post(
        `${ACC}/email/send_code`,
        { email: next, current_password: users[i % 3]!.password },
        users[i % 3]!.token,
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 200: 1, 429: 59 });
  });

  it('per user, change-email sends stop at the rule whatever the addresses', async () => {
    t = await createTestApp({ LIMIT_EMAIL_CHANGE_USER: '5/3600' });
    const u = await t.register();
    const res = await parallel(50, (i) =>
      t!.post(
        `${ACC}/email/send_code`,
        {
          email: `${uniqueName(`m${i}`)}@example.org`,
          current_password: u.password,
        },
        u.token,
      ),
    );
    expect(countBy(res.map((r) => r.statusCode))).toEqual({ 200: 5, 429: 45 });
  });
});
