import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** A fresh app on the clock `now` reads, with one person, alice, to approve devices. */
export async function startDeviceApp(now: () => number) {
  const t = await createTestApp(
    { BASE_URL: 'https://id.example.com' },
    { now },
  );
  const alice = await t.register();
  return { t, alice };
}

/** The device flow's requests against the app and person `current()` returns. */
export function deviceRequests(current: () => { t: TestApp; alice: TestUser }) {
  async function start(clientId?: string) {
    const res = await current().t.post(
      '/api/v1/auth/device/start',
      clientId === undefined ? undefined : { client_id: clientId },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      device_code: string;
      user_code: string;
      interval: number;
    };
  }
  const poll = (deviceCode: unknown) =>
    current().t.post('/api/v1/auth/device/poll', { device_code: deviceCode });
  const approve = (
    userCode: unknown,
    token = current().alice.token,
    deny?: boolean,
  ) =>
    current().t.post(
      '/api/v1/auth/device/approve',
      { user_code: userCode, ...(deny !== undefined && { deny }) },
      token,
    );
  return { start, poll, approve };
}
