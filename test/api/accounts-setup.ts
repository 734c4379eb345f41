import { afterAll, beforeAll, expect } from 'vitest';
import {
  createTestApp,
  failure,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';

const A = '/api/v1/auth';

export const freshEmail = () => `${uniqueName('mail')}@example.com`;

/** Asks the app `current()` returns to mail a code for `purpose`, and checks it was accepted. */
export function codeSender(current: () => TestApp) {
  return async function sendCode(email: string, purpose: string) {
    const res = await current().post(`${A}/send_code`, { email, purpose });
    expect(failure(res), `send_code ${purpose} ${email}`).toEqual([
      200,
      { ok: true, data: { expires_in: 600, resend_after: 60 } },
    ]);
  };
}

/** One app shared by a test file's tests and closed after them, and its code sender. */
export function accountsApp() {
  const env = { t: undefined as unknown as TestApp };
  beforeAll(async () => {
    env.t = await createTestApp();
  });
  afterAll(async () => {
    await env.t.close();
  });
  return { env, sendCode: codeSender(() => env.t) };
}
