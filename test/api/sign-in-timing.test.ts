import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';

/**
 * A sign-in for an unknown user must not answer measurably sooner than one with a wrong
 * password, or the time would tell which names exist. It compares elapsed times, so it runs
 * in the serial test projects, where no other file competes for the CPU.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const A = '/api/v1/auth';

describe('login', () => {
  it('takes about as long for an unknown user as for a wrong password', async () => {
    const u = await t.register();
    const timed = async (username: string) => {
      const started = performance.now();
      const res = await t.post(`${A}/login`, {
        username,
        password: 'wrong password',
      });
      expect(res.statusCode).toBe(401);
      return performance.now() - started;
    };
    await timed(u.username);
    await timed(uniqueName());
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) {
      wrong.push(await timed(u.username));
      unknown.push(await timed(uniqueName()));
    }
    const median = (xs: number[]) =>
      [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
