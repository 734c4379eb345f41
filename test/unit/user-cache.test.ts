import { describe, expect, it } from 'vitest';
import { LocalChangeBus } from '../../src/platform/bus/change-bus.js';
import {
  UserCache,
  USER_FRESH_MS,
  USER_MAX_AGE_MS,
} from '../../src/features/sessions/user-cache.js';
import type { User } from '../../src/features/accounts/repository.js';

const user = (over: Partial<User> = {}): User => ({
  id: 1,
  username: 'alice',
  email: 'a@example.com',
  displayName: 'alice',
  passwordHash: 'x',
  emailVerified: true,
  roles: ['player'],
  banned: false,
  banReason: '',
  bannedUntil: null,
  tokensValidAfter: 0,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

/** A user table of one row whose reads can be held back, with a hand-driven clock. */
function fixture() {
  let row = user();
  let reads = 0;
  let hold: Promise<void> | undefined;
  const users = {
    async findById() {
      reads += 1;
      const seen = row;
      if (hold) await hold;
      return seen;
    },
    async changedSince() {
      return [];
    },
  };
  const clock = { now: 1_000_000 };
  const bus = new LocalChangeBus();
  const cache = new UserCache(users, bus, () => clock.now);
  return {
    cache,
    clock,
    bus,
    reads: () => reads,
    setRow: (u: User) => {
      row = u;
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

const flush = () => new Promise((r) => setImmediate(r));

describe('UserCache', () => {
  it('serves a fresh copy without reading, and makes the caller wait when it has none', async () => {
    const f = fixture();
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect((await f.cache.findById(1))?.banned).toBe(false);
    expect(f.reads()).toBe(1);
    f.clock.now += USER_FRESH_MS - 1;
    expect(f.cache.inMemory(1)).toMatchObject({ id: 1 });
    expect(f.reads()).toBe(1);
  });

  it('past the fresh window serves the copy while reloading once in the background; past the max age it waits', async () => {
    const f = fixture();
    await f.cache.findById(1);
    f.setRow(user({ banned: true }));
    f.clock.now += USER_FRESH_MS;
    expect(f.cache.inMemory(1)).toMatchObject({ banned: false });
    expect(f.cache.inMemory(1)).toMatchObject({ banned: false });
    await flush();
    expect(f.reads()).toBe(2);
    expect(f.cache.inMemory(1)).toMatchObject({ banned: true });
    f.clock.now += USER_MAX_AGE_MS;
    expect(f.cache.inMemory(1)).toBeUndefined();
  });

  it('never serves a copy older than the max age, which stays inside the 5 s of docs/api.md §3', async () => {
    expect(USER_MAX_AGE_MS).toBeLessThan(5000);
    // Another instance bans the user, and no event reaches this one: just under 5 s later the
    // ban is seen, whatever the cache held.
    const f = fixture();
    await f.cache.findById(1);
    f.setRow(user({ banned: true }));
    f.clock.now += 4999;
    expect((await f.cache.findById(1))?.banned).toBe(true);
  });

  it('a local change is seen at once, even by a read that was already under way', async () => {
    const f = fixture();
    const release = f.holdReads();
    const stale = f.cache.findById(1);
    f.setRow(user({ banned: true }));
    f.bus.publish({ type: 'user', id: 1 });
    release();
    expect((await stale)?.banned).toBe(false);
    // The read that raced with the change was not kept.
    expect(f.cache.inMemory(1)).toBeUndefined();
    expect((await f.cache.findById(1))?.banned).toBe(true);
  });

  it('concurrent misses share one read', async () => {
    const f = fixture();
    const release = f.holdReads();
    const all = Promise.all([
      f.cache.findById(1),
      f.cache.findById(1),
      f.cache.findById(1),
    ]);
    release();
    await all;
    expect(f.reads()).toBe(1);
  });

  it('a change announced on the bus drops the cached copy', async () => {
    const f = fixture();
    await f.cache.findById(1);
    f.bus.deliver({ type: 'user', id: 1 });
    expect(f.cache.inMemory(1)).toBeUndefined();
  });
});
