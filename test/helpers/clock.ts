import { vi } from 'vitest';

/**
 * A clock the test moves by hand, which is also the process's `Date`: the services read it
 * through their `now` option, and the rate-limit windows (rate-limiter-flexible keeps them on
 * `Date.now()`) end when it passes them. `restore()` gives `Date` back; call it after the test.
 */
export interface TestClock {
  now: number;
  restore(): void;
}

export function testClock(start = Date.now()): TestClock {
  let ms = start;
  vi.setSystemTime(ms);
  return {
    get now() {
      return ms;
    },
    set now(value: number) {
      ms = value;
      vi.setSystemTime(ms);
    },
    restore: () => vi.useRealTimers(),
  };
}
