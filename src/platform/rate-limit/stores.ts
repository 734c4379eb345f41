/**
 * Fixed-window counters. The memory store serves one process; a Redis store (same
 * interface) shares counts between instances.
 */
export interface RateLimitStore {
  /** Adds one to `key` in a window of `windowMs`, atomically; returns the count including this hit. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Takes back one hit of a live window (never below zero): a try that turned out not to count. */
  decrement(key: string): Promise<void>;
  /** The current count without adding to it: for inspection only, never to decide a limit (read, then compare, races). */
  peek(key: string): Promise<number>;
  /** Milliseconds until the live window of `key` ends (0 when none is live): tells a refused client when to come back. */
  msLeft(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + windowMs });
      return 1;
    }
    w.count += 1;
    return w.count;
  }

  async decrement(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.resetAt > this.now() && w.count > 0) w.count -= 1;
  }

  async peek(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.resetAt > this.now() ? w.count : 0;
  }

  async msLeft(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w ? Math.max(0, w.resetAt - this.now()) : 0;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
