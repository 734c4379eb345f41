import { BoundedMap } from './bounded-map.js';

/** A cached copy younger than this is served as is. */
export const CACHE_FRESH_MS = 2000;
/**
 * Up to this age a cached copy is still served while a reload runs in the background, so a
 * request never waits on the database for a row it has seen recently. Another instance's
 * change is thus seen here within this bound (docs/api.md §3 allows 5 s); local changes at once.
 */
export const CACHE_MAX_AGE_MS = 4000;
/**
 * While a change feed polls (platform/bus/change-feed.ts), every key changed anywhere is dropped
 * within a poll, so copies are served this long before a reload: the bound that still holds
 * if a writer's clock is off by more than the feed's overlap.
 */
export const FEED_FRESH_MS = 60_000;
/** The feed counts as running while its last poll started within this. */
const FEED_ALIVE_MS = 3000;
/** Returned by `cached()` when the caller has to wait for the database. */
export const NOT_CACHED = Symbol('not cached');

/**
 * Rows read on every Bearer request (users, app status), kept per instance so the hot path
 * (`me`) answers without a promise. A copy is served fresh, then served while it reloads in
 * the background, then reloaded before answering; `forget` (a change event) drops it at once.
 * With a change feed polling the table, copies are kept for FEED_FRESH_MS instead.
 */
export class ReloadingCache<K, V> {
  private readonly entries: BoundedMap<K, { value: V; loadedAt: number }>;
  private readonly loading = new Map<K, Promise<V>>();
  /** Bumped by every change, so a load that raced with a change never caches its stale row. */
  private generation = 0;
  /** When the last poll of a change feed started that dropped every key changed before it. */
  private feedPolledAt = -Infinity;

  constructor(
    private readonly read: (key: K) => Promise<V>,
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  /** The value without waiting when a recent enough copy is cached; an older copy also starts a reload. */
  cached(key: K): V | typeof NOT_CACHED {
    const hit = this.entries.get(key);
    if (hit === undefined) return NOT_CACHED;
    const now = this.now();
    const age = now - hit.loadedAt;
    const fresh = now - this.feedPolledAt < FEED_ALIVE_MS ? FEED_FRESH_MS : CACHE_FRESH_MS;
    if (age < fresh) return hit.value;
    if (age >= fresh + CACHE_MAX_AGE_MS - CACHE_FRESH_MS) return NOT_CACHED;
    void this.load(key).catch(() => undefined);
    return hit.value;
  }

  /** The value as stored now (at most CACHE_MAX_AGE_MS old when changed elsewhere). */
  async get(key: K): Promise<V> {
    const cached = this.cached(key);
    return cached === NOT_CACHED ? this.load(key) : cached;
  }

  /**
   * A change feed's poll that started at `startedAt` has forgotten every key changed up to
   * then: copies need no reload of their own while such polls keep coming.
   */
  feedPolled(startedAt: number): void {
    this.feedPolledAt = startedAt;
  }

  /** Drops the copy and any load in flight, which might have read the row before the change. */
  forget(key: K): void {
    this.generation += 1;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** One database read per key at a time, however many requests ask for it. */
  private load(key: K): Promise<V> {
    let pending = this.loading.get(key);
    if (pending !== undefined) return pending;
    const startedAt = this.now();
    const generation = this.generation;
    const settle = () => {
      if (this.loading.get(key) === pending) this.loading.delete(key);
    };
    pending = this.read(key).then((value) => {
      settle();
      if (generation === this.generation) {
        this.entries.set(key, { value, loadedAt: startedAt });
      }
      return value;
    }, (err: unknown) => {
      settle();
      throw err;
    });
    this.loading.set(key, pending);
    return pending;
  }
}
