import { describe, expect, it } from 'vitest';
import {
  CACHE_FRESH_MS,
  CACHE_MAX_AGE_MS,
  RowCache,
} from '../../src/platform/cache/row-cache.js';

/** A table of versioned rows (`v<id>.<version>`), with reads that can be held back or fail, and a hand-driven clock. */
function fixture(maxEntries = 100) {
  const clock = { now: 1_000_000 };
  const versions = new Map<number, number>();
  const reads: number[] = [];
  let hold: Promise<void> | undefined;
  let failing = false;
  const cache = new RowCache<number, string>(
    async (id) => {
      reads.push(id);
      const version = versions.get(id);
      if (hold) await hold;
      if (failing) throw new Error('database unreachable');
      return version === undefined ? undefined : `v${id}.${version}`;
    },
    maxEntries,
    () => clock.now,
  );
  return {
    cache,
    clock,
    reads,
    write: (id: number) => versions.set(id, (versions.get(id) ?? 0) + 1),
    fail: (on: boolean) => {
      failing = on;
    },
    holdReads: () => {
      let release!: () => void;
      hold = new Promise((r) => {
        release = r;
      });
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('RowCache: bounded per instance', () => {
  it('keeps exactly the newest rows and never more than its size', async () => {
    const f = fixture(10);
    for (let id = 1; id <= 1000; id++) {
      f.write(id);
      await f.cache.get(id);
    }
    for (let id = 991; id <= 1000; id++)
      expect(f.cache.inMemory(id)).toBe(`v${id}.1`);
    expect(f.cache.inMemory(990)).toBeUndefined();
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(f.reads).toHaveLength(1000);
  });

  it('drops the least recently used row first: a row in use outlives older ones', async () => {
    const f = fixture(3);
    for (const id of [1, 2, 3, 4]) f.write(id);
    await f.cache.get(1);
    await f.cache.get(2);
    await f.cache.get(3);
    expect(f.cache.inMemory(1)).toBe('v1.1');
    await f.cache.get(4);
    expect([1, 2, 3, 4].map((id) => f.cache.inMemory(id))).toEqual([
      'v1.1',
      undefined,
      'v3.1',
      'v4.1',
    ]);
  });

  it('forget drops one row and keeps the others', async () => {
    const f = fixture();
    f.write(1);
    f.write(2);
    await f.cache.get(1);
    await f.cache.get(2);
    f.cache.forget(1);
    f.cache.forget(1);
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(f.cache.inMemory(2)).toBe('v2.1');
  });

  it('keeps "no such row" apart from "not in memory": get() answers it without a read', async () => {
    const f = fixture();
    expect(await f.cache.get(7)).toBeUndefined();
    expect(await f.cache.get(7)).toBeUndefined();
    expect(f.reads).toEqual([7]);
    expect(f.cache.inMemory(7)).toBeUndefined();
  });
});

describe('RowCache: freshness', () => {
  it('serves a fresh copy as is, then one background reload while stale, then waits', async () => {
    const f = fixture();
    f.write(1);
    expect(await f.cache.get(1)).toBe('v1.1');
    f.write(1);
    f.clock.now += CACHE_FRESH_MS - 1;
    expect(f.cache.inMemory(1)).toBe('v1.1');
    expect(f.reads).toHaveLength(1);
    f.clock.now += 1;
    expect(f.cache.inMemory(1)).toBe('v1.1');
    expect(await f.cache.get(1)).toBe('v1.1');
    expect(f.reads).toHaveLength(2);
    await settled();
    expect(f.cache.inMemory(1)).toBe('v1.2');
    f.write(1);
    f.clock.now += CACHE_MAX_AGE_MS;
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(await f.cache.get(1)).toBe('v1.3');
  });

  it("counts a copy's age from the start of its read", async () => {
    const f = fixture();
    f.write(1);
    const release = f.holdReads();
    const read = f.cache.get(1);
    f.clock.now += CACHE_MAX_AGE_MS;
    release();
    expect(await read).toBe('v1.1');
    expect(f.cache.inMemory(1)).toBeUndefined();
  });

  it('concurrent reads of one key share one database read', async () => {
    const f = fixture();
    f.write(1);
    const release = f.holdReads();
    const all = Promise.all([f.cache.get(1), f.cache.get(1), f.cache.get(1)]);
    release();
    expect(await all).toEqual(['v1.1', 'v1.1', 'v1.1']);
    expect(f.reads).toEqual([1]);
  });

  it('a read under way when the row changes answers its caller but is not kept', async () => {
    const f = fixture();
    f.write(1);
    const release = f.holdReads();
    const stale = f.cache.get(1);
    f.write(1);
    f.cache.forget(1);
    release();
    expect(await stale).toBe('v1.1');
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(await f.cache.get(1)).toBe('v1.2');
  });

  it('a background reload racing a change is dropped too', async () => {
    const f = fixture();
    f.write(1);
    await f.cache.get(1);
    f.clock.now += CACHE_FRESH_MS;
    const release = f.holdReads();
    expect(f.cache.inMemory(1)).toBe('v1.1');
    f.write(1);
    f.cache.forget(1);
    release();
    await settled();
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect(await f.cache.get(1)).toBe('v1.2');
  });

  it('a failed background reload keeps the copy within its age; a failed wait rejects', async () => {
    const f = fixture();
    f.write(1);
    await f.cache.get(1);
    f.clock.now += CACHE_FRESH_MS;
    f.fail(true);
    expect(f.cache.inMemory(1)).toBe('v1.1');
    await settled();
    expect(f.cache.inMemory(1)).toBe('v1.1');
    f.clock.now += CACHE_MAX_AGE_MS - CACHE_FRESH_MS;
    await expect(f.cache.get(1)).rejects.toThrow('database unreachable');
    f.fail(false);
    expect(await f.cache.get(1)).toBe('v1.1');
  });
});
