import type { RevocationRepo } from './repository.js';
import type { ChangeBus } from '../../platform/bus/change-bus.js';

const REVOCATION_POLL_MS = 1000;
/** Overlap of successive polls so a row committed late, or a skewed clock, is not missed. */
const POLL_OVERLAP_MS = 3000;

/**
 * Per-instance set of the ids revoked before their tokens expire: token ids (jti), ended
 * sessions (`sid:`, sign-ins.ts) and revoked OIDC refresh families (`family:`), so every Bearer
 * check is one Map look-up. A revocation here is stored, applied at once and announced on the
 * change bus, which reaches other instances through Redis or the cluster primary; without a
 * bus they catch up within the next poll of the table (about a second).
 */
export class RevokedTokens {
  /** Revoked ids, with the time each was added here. */
  private readonly revoked = new Map<string, number>();
  private lastPoll = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly revocations: Pick<
      RevocationRepo,
      'revoke' | 'revokedSince'
    >,
    private readonly bus: ChangeBus,
    private readonly now: () => number = Date.now,
  ) {
    bus.subscribe((e) => {
      if (e.type === 'revoked') this.revoked.set(e.jti, this.now());
    });
  }

  /** Loads the revocations that are still relevant and starts polling for new ones. */
  async start(): Promise<void> {
    this.lastPoll = 0;
    await this.poll();
    this.timer = setInterval(
      () => void this.poll().catch(() => undefined),
      REVOCATION_POLL_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    const started = this.now();
    const since = this.lastPoll === 0 ? 0 : this.lastPoll - POLL_OVERLAP_MS;
    for (const jti of await this.revocations.revokedSince(
      since,
      Math.floor(started / 1000),
    )) {
      if (!this.revoked.has(jti)) this.revoked.set(jti, started);
    }
    this.lastPoll = started;
  }

  /**
   * Replaces the set with the revocations still live in the database, dropping ids of expired
   * tokens; ids added while the reload ran are kept.
   */
  async reload(): Promise<void> {
    const started = this.now();
    const live = await this.revocations.revokedSince(
      0,
      Math.floor(started / 1000),
    );
    const next = new Map<string, number>(live.map((jti) => [jti, started]));
    for (const [jti, addedAt] of this.revoked)
      if (addedAt >= started) next.set(jti, addedAt);
    this.revoked.clear();
    for (const [jti, addedAt] of next) this.revoked.set(jti, addedAt);
  }

  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }

  /** Records a revocation durably, applies it here at once and tells other instances. */
  async revoke(jti: string, userId: number, exp: number): Promise<void> {
    await this.revocations.revoke(jti, userId, exp, this.now());
    this.revoked.set(jti, this.now());
    this.bus.publish({ type: 'revoked', jti });
  }
}
