import type { Logger } from 'pino';

/**
 * When a message that failed is tried again: after the 1st, 2nd, … failed try it waits
 * `delaysMs[0]`, `delaysMs[1]`, …, then `everyMs` each time, until `giveUpAfterMs` after it
 * was written.
 */
export interface RetrySchedule {
  delaysMs: readonly number[];
  everyMs: number;
  giveUpAfterMs: number;
}

/** When to try again after `attempts` failed tries, or null to give up. */
export function retryAt(
  schedule: RetrySchedule,
  attempts: number,
  createdAt: number,
  now: number,
): number | null {
  const next = now + (schedule.delaysMs[attempts - 1] ?? schedule.everyMs);
  return next - createdAt > schedule.giveUpAfterMs ? null : next;
}

/** One kind of message a LeaseLoop sends, with slots of its own. */
export interface Lane<T> {
  /** How many of this kind one instance sends at once. */
  slots: number;
  /**
   * Leases up to `free` due messages: a leased one is no other instance's until it is settled
   * or its lease runs out (its instance died).
   */
  claim(free: number): Promise<T[]>;
  /** Sends one leased message and settles it (done, later, or given up). */
  deliver(item: T): Promise<void>;
}

/**
 * The sending half of an outbox: every instance polls, and is woken when it writes a message
 * itself, and leases due messages into the free slots of each lane. Each message is sent on
 * its own and frees its slot when it ends, which fills the slot again at once: nothing waits
 * for a slow one but the messages behind it. Stopping takes no new message and waits for
 * those under way; what is still queued stays in the table for the next start.
 */
export class LeaseLoop<T> {
  private timer: NodeJS.Timeout | undefined;
  private readonly busy: number[];
  private readonly sending = new Set<Promise<void>>();
  private filling: Promise<void> | undefined;
  private fillAgain = false;

  /** `what` names the messages in the log (`webhook delivery`, `e-mail`). */
  constructor(
    private readonly lanes: readonly Lane<T>[],
    private readonly log: Logger,
    private readonly what: string,
  ) {
    this.busy = lanes.map(() => 0);
  }

  start(pollMs = 500): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), pollMs);
    this.timer.unref();
  }

  /** Stops taking messages and waits for those under way (each ends within its own time limit). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.filling;
    await Promise.all(this.sending);
  }

  /**
   * Leases due messages into the free slots now, without waiting for the next poll (a message
   * was just written). Never runs twice at once: a call meanwhile makes it run again after.
   */
  wake(): void {
    if (!this.timer) return;
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.claimIntoFreeSlots()
      .catch((err: unknown) =>
        this.log.warn({ err }, `${this.what}: leasing failed`),
      )
      .finally(() => {
        this.filling = undefined;
        if (this.fillAgain) {
          this.fillAgain = false;
          this.wake();
        }
      });
  }

  private async claimIntoFreeSlots(): Promise<void> {
    for (const [i, lane] of this.lanes.entries()) {
      const free = lane.slots - this.busy[i]!;
      if (free <= 0) continue;
      for (const item of await lane.claim(free)) this.send(i, lane, item);
    }
  }

  private send(i: number, lane: Lane<T>, item: T): void {
    this.busy[i]!++;
    const sent: Promise<void> = lane
      .deliver(item)
      // A message not settled (storage failed) stays leased until its lease runs out, then goes again.
      .catch((err: unknown) =>
        this.log.warn({ err }, `${this.what} not settled`),
      )
      .finally(() => {
        this.busy[i]!--;
        this.sending.delete(sent);
        this.wake();
      });
    this.sending.add(sent);
  }
}
