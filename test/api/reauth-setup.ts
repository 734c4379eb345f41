import { generate } from 'otplib';
import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const A = '/api/v1/auth';
const ACC = `${A}/account`;
export const BASE = 'https://id.example.com';
export const STEP_MS = 30_000;

/** A fresh app on the clock `now` reads. */
export function startReauthApp(now: () => number) {
  // OTP limits out of the way: each endpoint below takes one wrong code.
  return createTestApp(
    { BASE_URL: BASE, LIMIT_OTP_PAIR: '100/900', LIMIT_OTP_ACCOUNT: '100/900' },
    { now },
  );
}

/**
 * Sign-in and authenticator helpers against the app and moving clock of the calling file:
 * `app()` and `now()` read them, `step()` moves the clock on by one authenticator step.
 */
export function reauthRequests(file: {
  app: () => TestApp;
  now: () => number;
  step: () => void;
}) {
  const codeAt = (secret: string) =>
    generate({ secret, epoch: Math.floor(file.now() / 1000) });

  const login = async (u: TestUser) =>
    (
      await file
        .app()
        .post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token as string;

  async function enrolled(): Promise<TestUser & { secret: string }> {
    const t = file.app();
    const u = await t.register();
    const { secret } = (
      await t.post(
        `${ACC}/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await t.post(
          `${ACC}/totp/enable`,
          { code: await codeAt(secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    file.step();
    return { ...u, secret };
  }

  return { codeAt, login, enrolled };
}
