import { generate } from 'otplib';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

const A = '/api/v1/auth';
export const STEP_MS = 30_000;

/**
 * The authenticator and sign-in requests the second-factor files share, against the app and
 * the moving clock of the file that calls it: `app()` and `now()` read them, `step()` moves
 * the clock on by one authenticator step.
 */
export function secondFactorRequests(file: {
  app: () => TestApp;
  now: () => number;
  step: () => void;
}) {
  const codeAt = (secret: string, ms = file.now()) =>
    generate({ secret, epoch: Math.floor(ms / 1000) });

  /** A registered user with the authenticator on: its secret and recovery codes. */
  async function enrolled(
    app = file.app(),
  ): Promise<TestUser & { secret: string; recovery: string[] }> {
    const u = await app.register();
    const setup = await app.post(
      `${A}/account/totp/setup`,
      { current_password: u.password },
      u.token,
    );
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json().data;
    const on = await app.post(
      `${A}/account/totp/enable`,
      { code: await codeAt(secret) },
      u.token,
    );
    expect(on.statusCode).toBe(200);
    file.step();
    return { ...u, secret, recovery: on.json().data.recovery_codes };
  }

  const login = (
    u: TestUser,
    extra: Record<string, unknown> = {},
    app = file.app(),
  ) =>
    app.post(`${A}/login`, {
      username: u.username,
      password: u.password,
      ...extra,
    });

  return { codeAt, enrolled, login };
}

/**
 * One app for a test file's tests, closed after them, with the requests above. Its clock moves:
 * every test steps it forward, so the codes of one test never collide with another's.
 */
export function secondFactorApp() {
  const env = {
    t: undefined as unknown as TestApp,
    clock: Date.UTC(2030, 0, 1, 12, 0, 0),
  };
  beforeAll(async () => {
    env.t = await createTestApp({}, { now: () => env.clock });
  });
  afterAll(async () => {
    await env.t.close();
  });
  const requests = secondFactorRequests({
    app: () => env.t,
    now: () => env.clock,
    step: () => {
      env.clock += STEP_MS;
    },
  });
  return { env, ...requests };
}
