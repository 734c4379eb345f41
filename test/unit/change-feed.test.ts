import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../src/platform/bus/change-feed.js';
import {
  CACHE_MAX_AGE_MS,
  FEED_FRESH_MS,
  RowCache,
} from '../../src/platform/cache/row-cache.js';

/** A cache over a table of versioned rows, a change feed over its `updated_at`, and a hand-driven clock. */
function fixture() {
  const clock = { now: 1_000_000 };
  const rows = new Map<number, { v: number; updatedAt: number }>([
    [1, { v: 1, updatedAt: 0 }],
    [2, { v: 1, updatedAt: 0 }],
  ]);
  let reads = 0;
  const cache = new RowCache<number, number>(
    async (id) => {
      reads += 1;
      return rows.get(id)?.v;
    },
    100,
    () => clock.now,
  );
  const asked: number[] = [];
  const feed = new ChangeFeed(
    async (since) => {
      asked.push(since);
      return [...rows]
        .filter(([, r]) => r.updatedAt >= since)
        .map(([id]) => id);
    },
    cache,
    () => clock.now,
  );
  /** Another instance's write: only the table and its `updated_at` change, no event. */
  const writeElsewhere = (id: number) =>
    rows.set(id, { v: (rows.get(id)?.v ?? 0) + 1, updatedAt: clock.now });
  return { clock, cache, feed, writeElsewhere, asked, reads: () => reads };
}

describe('change feed', () => {
  it('keeps copies without reloads while it polls, and drops a row changed elsewhere at the next poll', async () => {
    const f = fixture();
    f.feed.start();
    f.feed.stop();
    expect(await f.cache.get(1)).toBe(1);
    expect(await f.cache.get(2)).toBe(1);
    for (let s = 0; s < 30; s++) {
      f.clock.now += 1000;
      await f.feed.poll();
      expect(f.cache.inMemory(1)).toBe(1);
    }
    expect(f.reads()).toBe(2);
    f.writeElsewhere(1);
    expect(f.cache.inMemory(1)).toBe(1);
    f.clock.now += 1000;
    await f.feed.poll();
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(await f.cache.get(1)).toBe(2);
    expect(f.cache.inMemory(2)).toBe(1);
  });

  it('looks back past the previous poll, so a write stamped a little earlier is not missed', async () => {
    const f = fixture();
    f.feed.start();
    f.feed.stop();
    await f.cache.get(1);
    f.clock.now += 1000;
    await f.feed.poll();
    const pollAt = f.clock.now;
    f.clock.now += 1000;
    // Committed now, but stamped by a writer whose clock is 2 s behind.
    f.clock.now -= 2000;
    f.writeElsewhere(1);
    f.clock.now += 2000;
    await f.feed.poll();
    expect(f.asked.at(-1)).toBeLessThan(pollAt - 2000);
    expect(f.cache.inMemory(1)).toBeUndefined();
  });

  it('when polls stop, copies age out as without a feed', async () => {
    const f = fixture();
    f.feed.start();
    f.feed.stop();
    await f.cache.get(1);
    await f.feed.poll();
    f.clock.now += CACHE_MAX_AGE_MS + 1;
    expect(f.cache.inMemory(1)).toBeUndefined();
  });

  it('even while it polls, a copy is reloaded after FEED_FRESH_MS (a writer clock far off is bounded)', async () => {
    const f = fixture();
    f.feed.start();
    f.feed.stop();
    await f.cache.get(1);
    for (let t = 0; t < FEED_FRESH_MS + CACHE_MAX_AGE_MS; t += 1000) {
      f.clock.now += 1000;
      await f.feed.poll();
    }
    expect(f.cache.inMemory(1)).toBeUndefined();
  });
});
