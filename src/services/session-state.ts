import type { Storage, User } from '../storage/types.js';
import type { ChangeBus } from './change-bus.js';

/** A cached user younger than this is served as is. */
export const USER_CACHE_TTL_MS = 2000;
/**
 * Up to this age a cached user is still served while a reload runs in the background, so a
 * request never waits on the database for a user it has seen recently. Another instance's
 * change is thus seen here within this bound (CONTRACT §2 allows 5 s); local changes at once.
 */
export const USER_CACHE_MAX_AGE_MS = 4000;
/** Returned by cachedUser() when the caller has to wait for the database. */
export const NOT_CACHED = Symbol('not cached');
const REVOCATION_POLL_MS = 1000;
/** Overlap of successive polls so a row committed late, or a skewed clock, is not missed. */
const POLL_OVERLAP_MS = 3000;
const MAX_CACHED_USERS = 100_000;

/**
 * Per-instance view of the state every Bearer request checks: the user record (ban,
 * roles, token cut-off) and the set of revoked token ids. Local writes apply at once;
 * other instances' writes arrive through the bus or, without one, within the TTL/poll.
 */
export class SessionState {
  private readonly users = new Map<number, { user: User | undefined; loadedAt: number }>();
  private readonly loading = new Map<number, Promise<User | undefined>>();
  /** Bumped by every user change, so a load that raced with a change never caches its stale row. */
  private generation = 0;
  /** Revoked token ids, with the time each was added here. */
  private readonly revoked = new Map<string, number>();
  private lastPoll = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly storage: Storage, private readonly bus: ChangeBus, private readonly now: () => number = Date.now) {
    bus.subscribe((e) => {
      if (e.type === 'user') this.forget(e.id);
      else if (e.type === 'revoked') this.revoked.set(e.jti, this.now());
    });
  }

  /** Loads the revocations that are still relevant and starts polling for new ones. */
  async start(): Promise<void> {
    this.lastPoll = 0;
    await this.pollRevocations();
    this.timer = setInterval(() => void this.pollRevocations().catch(() => undefined), REVOCATION_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
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
    const hit = this.users.get(id);
    if (hit === undefined) return NOT_CACHED;
    const age = this.now() - hit.loadedAt;
    if (age < USER_CACHE_TTL_MS) return hit.user;
    if (age >= USER_CACHE_MAX_AGE_MS) return NOT_CACHED;
    void this.load(id).catch(() => undefined);
    return hit.user;
  }

  /** The user as stored now (at most USER_CACHE_MAX_AGE_MS old when changed elsewhere). */
  async user(id: number): Promise<User | undefined> {
    const cached = this.cachedUser(id);
    return cached === NOT_CACHED ? this.load(id) : cached;
  }

  /** One database read per user at a time, however many requests ask for it. */
  private load(id: number): Promise<User | undefined> {
    let pending = this.loading.get(id);
    if (pending !== undefined) return pending;
    const startedAt = this.now();
    const generation = this.generation;
    pending = this.storage.users.findById(id).then((user) => {
      if (this.loading.get(id) === pending) this.loading.delete(id);
      if (generation === this.generation) {
        if (this.users.size >= MAX_CACHED_USERS) this.users.delete(this.users.keys().next().value as number);
        this.users.delete(id);
        this.users.set(id, { user, loadedAt: startedAt });
      }
      return user;
    }, (err: unknown) => {
      if (this.loading.get(id) === pending) this.loading.delete(id);
      throw err;
    });
    this.loading.set(id, pending);
    return pending;
  }

  private forget(id: number): void {
    this.generation += 1;
    this.users.delete(id);
    this.loading.delete(id);
  }

  /** Records a revocation durably, applies it here at once and tells other instances. */
  async revoke(jti: string, userId: number, exp: number): Promise<void> {
    await this.storage.revocations.revoke(jti, userId, exp, this.now());
    this.revoked.set(jti, this.now());
    this.bus.publish({ type: 'revoked', jti });
  }

  /** Call after any write to a user row (ban, roles, password, cut-off, profile). */
  userChanged(id: number): void {
    this.forget(id);
    this.bus.publish({ type: 'user', id });
  }
}
