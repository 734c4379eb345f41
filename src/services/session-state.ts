import type { Storage, User } from '../storage/types.js';
import type { ChangeBus } from './change-bus.js';

/** How long another instance's change may stay unseen here; CONTRACT §2 allows 5 s. */
export const USER_CACHE_TTL_MS = 2000;
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
  private readonly revoked = new Map<string, number>();
  private lastPoll = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly storage: Storage, private readonly bus: ChangeBus, private readonly now: () => number = Date.now) {
    bus.subscribe((e) => {
      if (e.type === 'user') this.users.delete(e.id);
      else if (e.type === 'revoked') this.revoked.set(e.jti, 0);
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
      this.revoked.set(jti, 0);
    }
    this.lastPoll = started;
  }

  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }

  /** The user as stored now (at most USER_CACHE_TTL_MS old when changed elsewhere). */
  async user(id: number): Promise<User | undefined> {
    const now = this.now();
    const hit = this.users.get(id);
    if (hit && now - hit.loadedAt < USER_CACHE_TTL_MS) return hit.user;
    const user = await this.storage.users.findById(id);
    if (this.users.size >= MAX_CACHED_USERS) this.users.delete(this.users.keys().next().value as number);
    this.users.delete(id);
    this.users.set(id, { user, loadedAt: now });
    return user;
  }

  /** Records a revocation durably, applies it here at once and tells other instances. */
  async revoke(jti: string, userId: number, exp: number): Promise<void> {
    await this.storage.revocations.revoke(jti, userId, exp, this.now());
    this.revoked.set(jti, 0);
    this.bus.publish({ type: 'revoked', jti });
  }

  /** Call after any write to a user row (ban, roles, password, cut-off, profile). */
  userChanged(id: number): void {
    this.users.delete(id);
    this.bus.publish({ type: 'user', id });
  }
}
