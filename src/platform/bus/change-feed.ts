import type { RowCache } from '../cache/row-cache.js';

/** How often the feed asks the database what changed. */
export const FEED_POLL_MS = 1000;
/** Each poll looks this far back before the previous one: late commits and skewed clocks. */
const FEED_OVERLAP_MS = 3000;

/**
 * Keeps a RowCache of rows in step with a table's `updated_at`: once a second one
 * indexed query lists the keys changed since the previous poll (this instance's and every
 * other's), and the cache drops them. Without it every cached row had to be re-read every
 * 2 s to see another instance's change within 4 s: with 1,000 active users, 500 reads a
 * second. A change on this instance is dropped at once anyway (the change bus).
 */
export class ChangeFeed<K extends NonNullable<unknown>> {
  private lastPoll = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly changedSince: (since: number) => Promise<K[]>,
    private readonly cache: Pick<
      RowCache<K, NonNullable<unknown>>,
      'forget' | 'feedPolled'
    >,
    private readonly now: () => number = Date.now,
  ) {}

  /** Nothing is cached yet, so the first poll looks back only the overlap. */
  start(): void {
    if (this.timer) return;
    this.lastPoll = this.now();
    this.timer = setInterval(
      () => void this.poll().catch(() => undefined),
      FEED_POLL_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async poll(): Promise<void> {
    const started = this.now();
    for (const key of await this.changedSince(this.lastPoll - FEED_OVERLAP_MS))
      this.cache.forget(key);
    this.lastPoll = started;
    this.cache.feedPolled(started);
  }
}
