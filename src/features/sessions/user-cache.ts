import type { User, UserRepo } from '../accounts/index.js';
import type { ChangeBus } from '../../platform/bus/change-bus.js';
import { ChangeFeed } from '../../platform/bus/change-feed.js';
import {
  CACHE_FRESH_MS,
  CACHE_MAX_AGE_MS,
  RowCache,
} from '../../platform/cache/row-cache.js';

/** A cached user younger than this is served as is (while the change feed runs: FEED_FRESH_MS). */
export const USER_FRESH_MS = CACHE_FRESH_MS;
/** Up to this age a cached user is served while it reloads, when the change feed is not running. */
export const USER_MAX_AGE_MS = CACHE_MAX_AGE_MS;
const MAX_CACHED_USERS = 100_000;

/**
 * Per-instance cache of the user record every Bearer request checks (ban, roles, token
 * cut-off). Every user write is announced on the change bus (app/publishing-repos.ts), which
 * drops the copy here at once and on other instances through Redis or the cluster primary;
 * without a bus they catch up through the users' change feed (about a second).
 */
export class UserCache {
  private readonly users: RowCache<number, User>;
  private readonly feed: ChangeFeed<number>;

  constructor(
    repo: Pick<UserRepo, 'findById' | 'changedSince'>,
    bus: ChangeBus,
    now: () => number = Date.now,
  ) {
    this.users = new RowCache((id) => repo.findById(id), MAX_CACHED_USERS, now);
    this.feed = new ChangeFeed(
      (since) => repo.changedSince(since),
      this.users,
      now,
    );
    bus.subscribe((e) => {
      if (e.type === 'user') this.users.forget(e.id);
    });
  }

  /** Follows other instances' user changes (one query a second) until stop(). */
  start(): void {
    this.feed.start();
  }

  stop(): void {
    this.feed.stop();
  }

  /**
   * What the cache holds for the user right now, without reading storage (an older copy also
   * starts a background reload). Undefined when none is, or there is no such user.
   */
  inMemory(id: number): User | undefined {
    return this.users.inMemory(id);
  }

  /** The user as stored now (at most USER_MAX_AGE_MS old when changed elsewhere). */
  findById(id: number): Promise<User | undefined> {
    return this.users.get(id);
  }
}
