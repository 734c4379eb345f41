import type { RevocationRepo } from './repository.js';
import type { User, UserRepo } from '../accounts/index.js';
import type { ChangeBus } from '../../platform/bus/change-bus.js';

import { ChangeFeed } from '../../platform/bus/change-feed.js';
import { CACHE_FRESH_MS, CACHE_MAX_AGE_MS, NOT_CACHED, ReloadingCache } from '../../platform/cache/reloading-cache.js';

export { NOT_CACHED };
/** A cached user younger than this is served as is (while the change feed runs: FEED_FRESH_MS). */
export const USER_CACHE_TTL_MS = CACHE_FRESH_MS;
/** Up to this age a cached user is served while it reloads, when the change feed is not running. */
export const USER_CACHE_MAX_AGE_MS = CACHE_MAX_AGE_MS;
const REVOCATION_POLL_MS = 1000;
/** Overlap of successive polls so a row committed late, or a skewed clock, is not missed. */
const POLL_OVERLAP_MS = 3000;
const MAX_CACHED_USERS = 100_000;

/** What the cache reads: users by id and the revocation table. */
export interface SessionSources {
  readonly users: Pick<UserRepo, 'findById' | 'changedSince'>;
  readonly revocations: Pick<RevocationRepo, 'revoke' | 'revokedSince'>;
}

/**
 * Per-instance cache of what every Bearer request checks: the user record (ban, roles,
 * token cut-off) and the set of revoked token ids. Every user write is announced on the
 * change bus (app/publishing-repos.ts), which delivers here at once and to other
 * instances through Redis or the cluster primary; without a bus they catch up within the
 * revocation poll and the users' change feed (about a second each).
 */
export class SessionCache {
  private readonly users: ReloadingCache<number, User | undefined>;
  private readonly userFeed: ChangeFeed<number>;
  /** Revoked token ids, with the time each was added here. */
  private readonly revoked = new Map<string, number>();
  private lastPoll = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly storage: SessionSources, private readonly bus: ChangeBus, private readonly now: () => number = Date.now) {
    this.users = new ReloadingCache((id) => storage.users.findById(id), MAX_CACHED_USERS, now);
    this.userFeed = new ChangeFeed((since) => storage.users.changedSince(since), this.users, now);
    bus.subscribe((e) => {
      if (e.type === 'user') this.users.forget(e.id);
      else if (e.type === 'revoked') this.revoked.set(e.jti, this.now());
    });
  }

  /** Loads the revocations that are still relevant and starts polling for new ones. */
  async start(): Promise<void> {
    this.lastPoll = 0;
    await this.pollRevocations();
    this.timer = setInterval(() => void this.pollRevocations().catch(() => undefined), REVOCATION_POLL_MS);
    this.timer.unref();
    this.userFeed.start();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.userFeed.stop();
  }

  private async pollRevocations(): Promise<void> {
    const started = this.now();
    const since = this.lastPoll === 0 ? 0 : this.lastPoll - POLL_OVERLAP_MS;
    for (const jti of await this.storage.revocations.revokedSince(since, Math.floor(started / 1000))) {
      if (!this.revoked.has(jti)) this.revoked.set(jti, started);
    }
    this.lastPoll = started;
  }

  /**
   * Replaces the revoked set with the revocations still live in the database, dropping ids
   * of expired tokens; ids added while the reload ran are kept.
   */
  async reloadRevocations(): Promise<void> {
    const started = this.now();
    const live = await this.storage.revocations.revokedSince(0, Math.floor(started / 1000));
    const next = new Map<string, number>(live.map((jti) => [jti, started]));
    for (const [jti, addedAt] of this.revoked) if (addedAt >= started) next.set(jti, addedAt);
    this.revoked.clear();
    for (const [jti, addedAt] of next) this.revoked.set(jti, addedAt);
  }

  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }

  /**
   * The user without waiting, when a recent enough copy is cached (undefined: no such user);
   * an older copy also starts a background reload. NOT_CACHED: call user() and wait.
   */
  cachedUser(id: number): User | undefined | typeof NOT_CACHED {
    return this.users.cached(id);
  }

  /** The user as stored now (at most USER_CACHE_MAX_AGE_MS old when changed elsewhere). */
  user(id: number): Promise<User | undefined> {
    return this.users.get(id);
  }

  /** Records a revocation durably, applies it here at once and tells other instances. */
  async revoke(jti: string, userId: number, exp: number): Promise<void> {
    await this.storage.revocations.revoke(jti, userId, exp, this.now());
    this.revoked.set(jti, this.now());
    this.bus.publish({ type: 'revoked', jti });
  }
}
