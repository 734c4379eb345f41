import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { fetchJson } from '../helpers/net.js';

/**
 * A flood of password guesses (each an argon2 hash on the thread pool) must not stall the
 * event loop: token checks keep answering quickly, and the flood itself gets only 401s/429s.
 */
let t: TestApp;
let base: string;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({
    IP_RATE_LIMITS: 'on',
    TRUST_PROXY: 'true',
    LIMIT_LOGIN_IP: '1000000/900',
  });
  user = await t.register();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await t.close();
});

describe('under a sign-in flood', () => {
  it('keeps answering me quickly, and answers every guess with 401 or 429', {
    timeout: 60_000,
  }, async () => {
    const guess = () =>
      fetchJson(base, 'POST', '/api/v1/auth/login', {
        username: Math.random() < 0.5 ? user.username : uniqueName('ghost'),
        password: 'wrong password!',
      }).then((r) => r.status);
    const flood = Promise.all(Array.from({ length: 150 }, guess));
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await fetchJson(
        base,
        'GET',
        '/api/v1/auth/me',
        undefined,
        user.token,
      );
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    const statuses = await flood;
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // The account's own counters stopped most guesses at it without any hashing.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    latencies.sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(500);
    // The owner, from another address, is not locked out by the flood.
    const owner = await t.post(
      '/api/v1/auth/login',
      { username: user.username, password: user.password },
      undefined,
      { 'x-forwarded-for': '198.51.100.1' },
    );
    expect(owner.statusCode).toBe(200);
  });
});
