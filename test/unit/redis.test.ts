import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import type { ChangeEvent } from '../../src/platform/bus/change-bus.js';
import { RedisChangeBus } from '../../src/platform/bus/redis.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { redisCounters } from '../../src/platform/rate-limit/counters.js';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

const REDIS_URL = TEST_REDIS_URL;
const up = await redisAvailable();

const log = createLogger('silent');
const until = (what: string, check: () => boolean) =>
  waitFor(what, 3000, check, 10);

describe.skipIf(!up)('redis', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it("rate limit counts atomically across instances, expires its window in Redis's time, and resets", async () => {
    // Two instances of one deployment: the same prefix, one connection each.
    const prefix = `test:${process.pid}:${Math.random()}`;
    const instances = [
      redisCounters(REDIS_URL, log, prefix),
      redisCounters(REDIS_URL, log, prefix),
    ];
    closers.push(...instances.map((c) => () => c.close()));
    const [a, b] = instances.map((c) =>
      c.counter({ name: 'rule', max: 1000, windowS: 1 }),
    ) as [RateLimiterAbstract, RateLimiterAbstract];
    const key = 'k';
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).consume(key)),
    );
    expect(counts.map((c) => c.consumedPoints).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect((await b.get(key))?.consumedPoints).toBe(40);
    // The 1 s window runs out in Redis's own time.
    await waitFor(
      'the window to expire',
      3000,
      async () => (await a.get(key)) === null,
    );
    expect((await a.consume(key)).consumedPoints).toBe(1);
    await b.delete(key);
    expect(await a.get(key)).toBeNull();
  });

  it('change bus delivers locally at once and to other instances, never back to the sender', async () => {
    const a = new RedisChangeBus(REDIS_URL, log);
    const b = new RedisChangeBus(REDIS_URL, log);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    await Promise.all([a.ready(), b.ready()]);
    const atA: ChangeEvent[] = [];
    const atB: ChangeEvent[] = [];
    const mark = `jti-${process.pid}-${Math.random()}`;
    a.subscribe((e) => {
      if (JSON.stringify(e).includes(mark)) atA.push(e);
    });
    b.subscribe((e) => {
      if (JSON.stringify(e).includes(mark)) atB.push(e);
    });
    a.publish({ type: 'revoked', jti: mark });
    expect(atA).toEqual([{ type: 'revoked', jti: mark }]);
    await until('B to hear A', () => atB.length === 1);
    b.publish({ type: 'app', clientId: mark });
    await until('A to hear B', () => atA.length === 2);
    // One channel delivers in publish order: once each bus hears the other's later event, an
    // echo of its own earlier one would already be here.
    const barrier = `barrier-${process.pid}-${Math.random()}`;
    const barrierAtB: ChangeEvent[] = [];
    b.subscribe((e) => {
      if (JSON.stringify(e).includes(barrier)) barrierAtB.push(e);
    });
    a.publish({ type: 'revoked', jti: barrier });
    await until('B to hear the barrier', () => barrierAtB.length === 1);
    expect(atA).toEqual([
      { type: 'revoked', jti: mark },
      { type: 'app', clientId: mark },
    ]);
    expect(atB).toEqual([
      { type: 'revoked', jti: mark },
      { type: 'app', clientId: mark },
    ]);
  });

  it('an unreachable Redis degrades to local counting instead of failing', async () => {
    const dead = redisCounters('redis://127.0.0.1:1', log);
    closers.push(() => dead.close());
    const counter = dead.counter({ name: 'rule', max: 10, windowS: 10 });
    expect((await counter.consume('k')).consumedPoints).toBe(1);
    expect((await counter.consume('k')).consumedPoints).toBe(2);
  });
});
