import { LRUCache } from 'lru-cache';

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

/** A row as read (undefined: no such row), and when its read started: the copy is at least that old. */
interface Copy<V> {
  row: V | undefined;
  readAt: number;
}

/**
 * Rows read on every Bearer request (users, apps), kept per instance in an LRU of at most
 * `maxEntries` (lru-cache). A copy younger than the fresh window is served as is; up to
 * CACHE_MAX_AGE_MS − CACHE_FRESH_MS beyond it, it is served while one background reload runs;
 * older, the caller waits for the reload. The window is CACHE_FRESH_MS, or FEED_FRESH_MS while
 * a change feed polls the table. Ages are judged when a copy is read, not fixed when it was
 * stored (as lru-cache's own TTL would be), so copies fall back to the short window as soon
 * as the feed stops, and they count from the start of their read.
 *
 * Concurrent reads of one key share a single database read (lru-cache's `fetch`). `forget`
 * (a change event) drops the copy and any read in flight: lru-cache aborts the fetch of a
 * deleted key, and with `ignoreFetchAbort` that read still answers whoever waits on it but
 * is never stored, so a row read before a local change is not served after it.
 */
export class RowCache<
  K extends NonNullable<unknown>,
  V extends NonNullable<unknown>,
> {
  private readonly copies: LRUCache<K, Copy<V>>;
  /** When the last poll of a change feed started that dropped every key changed before it. */
  private feedPolledAt = -Infinity;

  constructor(
    read: (key: K) => Promise<V | undefined>,
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.copies = new LRUCache<K, Copy<V>>({
      max: maxEntries,
      fetchMethod: async (key) => {
        const readAt = now();
        return { row: await read(key), readAt };
      },
      ignoreFetchAbort: true,
      // A failed background reload keeps the copy it was replacing, still bound by its age.
      noDeleteOnFetchRejection: true,
    });
  }

  /**
   * The row without waiting, when a recent enough copy is in memory; a copy past the fresh
   * window also starts its reload. Undefined when memory holds no usable copy, or a copy
   * saying there is no such row: get() tells the two apart.
   */
  inMemory(key: K): V | undefined {
    return this.servable(key)?.row;
  }

  /** The row as stored now (undefined: no such row), at most CACHE_MAX_AGE_MS old when changed elsewhere. */
  async get(key: K): Promise<V | undefined> {
    const copy = this.servable(key) ?? (await this.reload(key));
    return copy?.row;
  }

  /**
   * A change feed's poll that started at `startedAt` has forgotten every key changed up to
   * then: copies need no reload of their own while such polls keep coming.
   */
  feedPolled(startedAt: number): void {
    this.feedPolledAt = startedAt;
  }

  /** Drops the copy and any read in flight, which might have read the row before the change. */
  forget(key: K): void {
    this.copies.delete(key);
  }

  private servable(key: K): Copy<V> | undefined {
    const copy = this.copies.get(key);
    if (copy === undefined) return undefined;
    const now = this.now();
    const age = now - copy.readAt;
    const fresh =
      now - this.feedPolledAt < FEED_ALIVE_MS ? FEED_FRESH_MS : CACHE_FRESH_MS;
    if (age < fresh) return copy;
    if (age >= fresh + CACHE_MAX_AGE_MS - CACHE_FRESH_MS) return undefined;
    void this.reload(key).catch(() => undefined);
    return copy;
  }

  /** Reads the row again; a read of this key already under way is joined, not repeated. */
  private reload(key: K): Promise<Copy<V> | undefined> {
    return this.copies.fetch(key, { forceRefresh: true });
  }
}
