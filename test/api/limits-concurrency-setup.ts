import { afterEach } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** What the concurrency files share: the limit's refusal, apps with the limits on, and counting. */
export const RATE_LIMITED = { ok: false, msg: '请求过于频繁，请稍后再试' };
export const from = (ip: string) => ({ 'x-forwarded-for': ip });

/**
 * Makes apps with the IP limits on behind a trusted proxy, `env` on top; the app a test made is
 * closed after it.
 */
export function limitedApps() {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  return async function limitedApp(
    env: Record<string, string> = {},
  ): Promise<TestApp> {
    t = await createTestApp({
      IP_RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      ...env,
    });
    return t;
  };
}

/** How many of `statuses` there are of each. */
export const countBy = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => {
    acc[s] = (acc[s] ?? 0) + 1;
    return acc;
  }, {});

/** `run(0)` to `run(n - 1)`, all at once. */
export const parallel = <T>(n: number, run: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => run(i)));
