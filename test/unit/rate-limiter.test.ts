import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { RateLimiter } from '../../src/features/limits/rate-limiter.js';
import {
  memoryCounters,
  redisCounters,
  type RateCounters,
} from '../../src/platform/rate-limit/counters.js';
import {
  DEFAULT_LIMITS,
  type LimitPolicy,
} from '../../src/features/limits/policy.js';
import { testClock } from '../helpers/clock.js';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.js';

const redisUp = await redisAvailable();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c();
});

const RATE_LIMITED = { status: 429, msg: '请求过于频繁，请稍后再试' };
const policy = (rules: Partial<LimitPolicy>): LimitPolicy => ({
  ...DEFAULT_LIMITS,
  ...rules,
});
const subject = (tag: string) => `${tag}:${process.pid}:${Math.random()}`;
const within = async (taken: Promise<Array<{ within: boolean }>>) =>
  (await taken).filter((t) => t.within).length;

const backends: Array<[string, () => RateCounters, boolean]> = [
  ['memory', memoryCounters, true],
  [
    'redis',
    () => {
      // A prefix of its own: counters outlive the run in Redis.
      const counters = redisCounters(
        TEST_REDIS_URL,
        createLogger('silent'),
        `test:${process.pid}:${Math.random()}`,
      );
      closers.push(() => counters.close());
      return counters;
    },
    redisUp,
  ],
];

describe.each(backends)(
  'the limiter on %s counters',
  (_name, counters, available) => {
    it.skipIf(!available)(
      'counts 60 parallel takes atomically, gives tries back, never below zero',
      async () => {
        const limiter = new RateLimiter(
          counters(),
          policy({ deviceApproveWrong: { max: 10, windowS: 60 } }),
          true,
        );
        const s = subject('s');
        expect(
          await within(
            Promise.all(
              Array.from({ length: 60 }, () =>
                limiter.take('deviceApproveWrong', s),
              ),
            ),
          ),
        ).toBe(10);
        for (let i = 0; i < 55; i++)
          await limiter.giveBack('deviceApproveWrong', s);
        expect((await limiter.take('deviceApproveWrong', s)).within).toBe(true); // 5 + 1
        for (let i = 0; i < 20; i++)
          await limiter.giveBack('deviceApproveWrong', s);
        expect(
          await within(
            Promise.all(
              Array.from({ length: 12 }, () =>
                limiter.take('deviceApproveWrong', s),
              ),
            ),
          ),
        ).toBe(10);
      },
    );

    it.skipIf(!available)(
      'a refusal says how much of the window is left, as Retry-After seconds',
      async () => {
        const limiter = new RateLimiter(
          counters(),
          policy({ deviceApproveWrong: { max: 1, windowS: 60 } }),
          true,
        );
        const s = subject('r');
        await limiter.takeOrRefuse('deviceApproveWrong', s);
        const refused = await limiter
          .takeOrRefuse('deviceApproveWrong', s)
          .then(
            () => undefined,
            (err: unknown) => err,
          );
        expect(refused).toMatchObject(RATE_LIMITED);
        const { retryAfterS } = refused as { retryAfterS: number };
        expect(retryAfterS).toBeGreaterThanOrEqual(59);
        expect(retryAfterS).toBeLessThanOrEqual(60);
        // The try that was refused was counted, and its own answer says the same.
        const again = await limiter.take('deviceApproveWrong', s);
        expect(again.within).toBe(false);
        expect(again.refusal({ error: 'slow_down' })).toMatchObject({
          ...RATE_LIMITED,
          extra: { error: 'slow_down' },
        });
      },
    );

    it.skipIf(!available)(
      'a reset clears the count; a try returned after it does not lend the next ones a try',
      async () => {
        const limiter = new RateLimiter(
          counters(),
          policy({ loginPair: { max: 2, windowS: 60 } }),
          true,
        );
        const s = subject('p');
        const first = await limiter.take('loginPair', s);
        await limiter.take('loginPair', s);
        expect((await limiter.take('loginPair', s)).within).toBe(false);
        await limiter.reset('loginPair', s);
        await first.giveBack();
        expect(
          await within(
            Promise.all(
              Array.from({ length: 5 }, () => limiter.take('loginPair', s)),
            ),
          ),
        ).toBe(2);
      },
    );
  },
);

describe('memory counters and the clock', () => {
  it('a window ends when the clock passes it; a try returned after that does not lend the next window a try', async () => {
    const clock = testClock();
    onTestFinished(() => clock.restore());
    const limiter = new RateLimiter(
      memoryCounters(),
      policy({ deviceApproveWrong: { max: 1, windowS: 60 } }),
      true,
    );
    const s = subject('w');
    const counted = await limiter.take('deviceApproveWrong', s);
    clock.now += 30_000;
    const refused = await limiter.take('deviceApproveWrong', s);
    expect(refused.within).toBe(false);
    expect(refused.refusal().retryAfterS).toBe(30);
    clock.now += 30_001;
    await counted.giveBack();
    expect((await limiter.take('deviceApproveWrong', s)).within).toBe(true);
    expect((await limiter.take('deviceApproveWrong', s)).within).toBe(false);
  });
});

describe('IP-only rules', () => {
  it('are skipped when IP limits are off; the others still count', async () => {
    const limiter = new RateLimiter(
      memoryCounters(),
      policy({
        devicePollUnknownIp: { max: 1, windowS: 60 },
        deviceApproveWrong: { max: 1, windowS: 60 },
      }),
      false,
    );
    expect((await limiter.take('devicePollUnknownIp', '10.0.0.1')).within).toBe(
      true,
    );
    expect((await limiter.take('devicePollUnknownIp', '10.0.0.1')).within).toBe(
      true,
    );
    expect((await limiter.take('deviceApproveWrong', '7')).within).toBe(true);
    expect((await limiter.take('deviceApproveWrong', '7')).within).toBe(false);
  });
});

describe('the limiter on the counters of a cluster primary', () => {
  it('two workers count as one: parallel takes, returns never below zero, Retry-After, reset', async () => {
    // The compiled service (built by the global setup), as `serve --workers N` runs it.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['test/helpers/cluster-limiter.mjs'],
      { timeout: 25_000 },
    );
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      firstWithin: 10, // of 2 × 30 parallel takes against a limit of 10
      afterReturnsWithin: 1, // 55 returned: 5 + 1
      secondWithin: 10, // 20 more returned stop at zero: 10 of 2 × 6
      allowedWithin: 1,
      refused: { within: 0, retryAfterS: 60 },
      afterResetWithin: 1,
    });
  });
});
