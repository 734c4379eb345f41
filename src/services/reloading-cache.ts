/** A cached copy younger than this is served as is. */
export const CACHE_FRESH_MS = 2000;
/**
 * Up to this age a cached copy is still served while a reload runs in the background, so a
 * request never waits on the database for a row it has seen recently. Another instance's
 * change is thus seen here within this bound (CONTRACT §2 allows 5 s); local changes at once.
 */
export const CACHE_MAX_AGE_MS = 4000;
/** Returned by `cached()` when the caller has to wait for the database. */
export const NOT_CACHED = Symbol('not cached');

/**
 * Rows read on every Bearer request (users, app status), kept per instance so the hot path
 * (`me`) answers without a promise. A copy is served fresh, then served while it reloads in
 * the background, then reloaded before answering; `forget` (a change event) drops it at once.
 */
export class ReloadingCache<K, V> {
  private readonly entries = new Map<K, { value: V; loadedAt: number }>();
  private readonly loading = new Map<K, Promise<V>>();
  /** Bumped by every change, so a load that raced with a change never caches its stale row. */
  private generation = 0;

  constructor(
    private readonly read: (key: K) => Promise<V>,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value without waiting when a recent enough copy is cached; an older copy also starts a reload. */
  cached(key: K): V | typeof NOT_CACHED {
    const hit = this.entries.get(key);
    if (hit === undefined) return NOT_CACHED;
    const age = this.now() - hit.loadedAt;
    if (age < CACHE_FRESH_MS) return hit.value;
    if (age >= CACHE_MAX_AGE_MS) return NOT_CACHED;
    void this.load(key).catch(() => undefined);
    return hit.value;
  }

  /** The value as stored now (at most CACHE_MAX_AGE_MS old when changed elsewhere). */
  async get(key: K): Promise<V> {
    const cached = this.cached(key);
    return cached === NOT_CACHED ? this.load(key) : cached;
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
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
        this.entries.delete(key);
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
