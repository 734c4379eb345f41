/**
 * A map of at most `max` entries that forgets its oldest ones when full, at a constant cost
 * per insert. Per-instance caches and trackers keep their entries here.
 *
 * Why not one `Map` that deletes `keys().next()` when full: V8 leaves a deleted entry in place
 * as a hole until the table is compacted, and a fresh iterator walks over every hole from the
 * start. At 100,000 entries each such eviction took about 40 µs (6 µs at 10,000), paid by every
 * sign-in once the session trackers were full.
 *
 * Entries live in two generations. New keys go into the young one; when it holds `max / 2`, it
 * becomes the old one and the previous old generation is dropped whole. So between `max / 2`
 * and `max` of the newest entries are kept; setting a key of the old generation moves it to
 * the young one. Values must not be `undefined` (a miss reads as undefined).
 */
export class BoundedMap<K, V extends NonNullable<unknown> | null> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generationSize: number;

  constructor(max: number) {
    this.generationSize = Math.max(1, Math.floor(max / 2));
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    return value !== undefined || this.old.size === 0 ? value : this.old.get(key);
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: K, value: V): this {
    if (!this.young.has(key)) {
      this.old.delete(key);
      if (this.young.size >= this.generationSize) {
        this.old = this.young;
        this.young = new Map();
      }
    }
    this.young.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const inYoung = this.young.delete(key);
    return this.old.delete(key) || inYoung;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}
