import { EventEmitter } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { answerLimitRequest, ClusterRateLimitStore, isClusterMessage } from '../../src/platform/bus/cluster-ipc.js';
import { RateLimiter } from '../../src/features/limits/rate-limiter.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/platform/rate-limit/stores.js';
import { RedisRateLimitStore } from '../../src/platform/bus/redis.js';
import { DEFAULT_LIMITS } from '../../src/features/limits/policy.js';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.js';

const redisUp = await redisAvailable();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => { for (const c of closers) await c(); });

/** A worker's IPC channel wired to a primary answering from one memory store. */
function clusterStore(): ClusterRateLimitStore {
  const primary = new MemoryRateLimitStore();
  const channel = new EventEmitter() as EventEmitter & { send: (m: unknown, h: unknown, o: unknown, cb: () => void) => boolean };
  channel.send = (m, _h, _o, cb) => {
    if (isClusterMessage(m) && m.kind === 'ac:limit') void answerLimitRequest(primary, m).then((reply) => channel.emit('message', reply));
    cb();
    return true;
  };
  const store = new ClusterRateLimitStore(channel as never);
  closers.push(() => store.close(), () => primary.close());
  return store;
}

const stores: Array<[string, () => RateLimitStore, boolean]> = [
  ['memory', () => new MemoryRateLimitStore(), true],
  ['cluster primary over IPC', clusterStore, true],
  ['redis', () => {
    const s = new RedisRateLimitStore(TEST_REDIS_URL, createLogger('silent'));
    closers.push(() => s.close());
    return s;
  }, redisUp],
];

describe.each(stores)('%s store', (_name, make, available) => {
  it.skipIf(!available)('counts 60 parallel takes atomically, gives tries back, never below zero', async () => {
    const store = make();
    const limiter = new RateLimiter(store, { ...DEFAULT_LIMITS, deviceApproveWrong: { max: 10, windowS: 60 } }, true);
    const subject = `s:${process.pid}:${Math.random()}`;
    const within = await Promise.all(Array.from({ length: 60 }, () => limiter.take('deviceApproveWrong', subject)));
    expect(within.filter(Boolean)).toHaveLength(10);
    for (let i = 0; i < 55; i++) await limiter.giveBack('deviceApproveWrong', subject);
    expect(await limiter.take('deviceApproveWrong', subject)).toBe(true); // 5 + 1
    for (let i = 0; i < 20; i++) await limiter.giveBack('deviceApproveWrong', subject);
    const again = await Promise.all(Array.from({ length: 12 }, () => limiter.take('deviceApproveWrong', subject)));
    expect(again.filter(Boolean)).toHaveLength(10);
  });

  it.skipIf(!available)('a refusal says how much of the window is left, as Retry-After seconds', async () => {
    const store = make();
    const limiter = new RateLimiter(store, { ...DEFAULT_LIMITS, deviceApproveWrong: { max: 1, windowS: 60 } }, true);
    const subject = `r:${process.pid}:${Math.random()}`;
    await limiter.takeOrRefuse('deviceApproveWrong', subject);
    const refused = await limiter.takeOrRefuse('deviceApproveWrong', subject).then(() => undefined, (err: unknown) => err);
    expect(refused).toMatchObject({ status: 429, msg: '请求过于频繁，请稍后再试' });
    const { retryAfterS } = refused as { retryAfterS: number };
    expect(retryAfterS).toBeGreaterThanOrEqual(59);
    expect(retryAfterS).toBeLessThanOrEqual(60);
    // No live window: nothing to wait for.
    expect(await store.msLeft(`rl:none:${Math.random()}`)).toBe(0);
  });
});

describe('IP-only rules', () => {
  it('are skipped when IP limits are off; the others still count', async () => {
    const limiter = new RateLimiter(new MemoryRateLimitStore(), { ...DEFAULT_LIMITS, devicePollUnknownIp: { max: 1, windowS: 60 }, deviceApproveWrong: { max: 1, windowS: 60 } }, false);
    expect(await limiter.take('devicePollUnknownIp', '10.0.0.1')).toBe(true);
    expect(await limiter.take('devicePollUnknownIp', '10.0.0.1')).toBe(true);
    expect(await limiter.take('deviceApproveWrong', '7')).toBe(true);
    expect(await limiter.take('deviceApproveWrong', '7')).toBe(false);
  });
});
