import { Webhook } from 'standardwebhooks';
import type { Logger } from 'pino';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import {
  LeaseLoop,
  retryAt,
  type RetrySchedule,
} from '../../platform/outbox/lease-loop.js';
import {
  guardedPost,
  type PostResult,
} from '../../platform/net/guarded-post.js';
import type {
  Delivery,
  DeliveryKind,
  DeliveryOutcome,
  OutboxRepo,
  WebhookEndpointRepo,
} from './repository.js';

/** The waits after the 1st, 2nd, … failed try (docs/api.md §15.2); then every 6 hours. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];
export const RETRY_EVERY_MS = 6 * 3_600_000;
/** A delivery still failing this long after it was written is given up; an endpoint failing this long is switched off. */
export const GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Longer than a try can take, so a lease runs out only when its instance died. */
const LEASE_MS = 60_000;

/**
 * How many deliveries of each kind one instance sends at once, and how many to one address
 * all instances together. Webhook endpoints (registered by administrators) and back-channel
 * addresses (registered by any application owner) have slots of their own, so addresses
 * that never answer can only ever hold back-channel slots, never a ban's webhook. Webhook
 * slots are many: an endpoint that hangs holds up to `perTarget` of them for the whole time
 * limit, and with 16 slots, four such endpoints held back a ban to every healthy one for 10 s;
 * 256 leave room for the healthy ones beside 64 endpoints that all hang.
 */
export const LANES: Readonly<
  Record<DeliveryKind, { slots: number; perTarget: number }>
> = {
  webhook: { slots: 256, perTarget: 4 },
  backchannel: { slots: 16, perTarget: 2 },
};
const KINDS = Object.keys(LANES) as DeliveryKind[];

/** The webhook and back-channel retry schedule (docs/api.md §15.2). */
export const DELIVERY_RETRIES: RetrySchedule = {
  delaysMs: RETRY_DELAYS_MS,
  everyMs: RETRY_EVERY_MS,
  giveUpAfterMs: GIVE_UP_AFTER_MS,
};

/** When to try again after `attempts` failed tries, or null to give up. */
export function nextAttemptAt(
  attempts: number,
  createdAt: number,
  now: number,
): number | null {
  return retryAt(DELIVERY_RETRIES, attempts, createdAt, now);
}

/** The request one delivery makes: headers and body. */
export type Rendered = { headers: Record<string, string>; body: string };

export interface DeliveryDeps {
  outbox: OutboxRepo;
  endpoints: WebhookEndpointRepo;
  /** Opens the sealed signing secrets of endpoints. */
  secrets: SecretBox;
  now: () => number;
  log: Logger;
  allowPrivate: boolean;
  /** Renders a delivery of another kind than `webhook` (back-channel logout tokens). */
  renderOther?: (d: Delivery, now: number) => Promise<Rendered>;
}

/**
 * Sends what the outbox holds, through the generic LeaseLoop: every instance polls and leases
 * due deliveries into its free slots (LANES). Each delivery runs on its own, with its own time limit, and frees its slot
 * when it ends, which fills the slot again at once: nothing waits for a slow request but the
 * deliveries behind it to the same address. A delivery is taken by one instance at a time
 * (the lease), and a later one of the same user to the same address waits until the earlier
 * is settled.
 */
export class DeliveryLoop {
  private readonly loop: LeaseLoop<Delivery>;

  constructor(private readonly deps: DeliveryDeps) {
    this.loop = new LeaseLoop(
      KINDS.map((kind) => ({
        slots: LANES[kind].slots,
        claim: (free) =>
          deps.outbox.claimDue(
            kind,
            deps.now(),
            LEASE_MS,
            free,
            LANES[kind].perTarget,
          ),
        deliver: (d) =>
          this.deliver(d).catch((err: unknown) =>
            deps.log.warn(
              { err, delivery: d.id },
              'webhook delivery not settled',
            ),
          ),
      })),
      deps.log,
      'webhook delivery',
    );
  }

  start(pollMs = 500): void {
    this.loop.start(pollMs);
  }

  /** Stops taking deliveries and waits for those under way (each ends within its time limit). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async deliver(d: Delivery): Promise<void> {
    const { outbox, endpoints, now } = this.deps;
    let result: PostResult;
    try {
      const { headers, body } = await this.render(d, now());
      result = await guardedPost(d.targetUrl, headers, body, {
        timeoutMs: DELIVERY_TIMEOUT_MS,
        allowPrivate: this.deps.allowPrivate,
      });
    } catch (err) {
      result = { status: null, body: `not sent: ${(err as Error).message}` };
    }
    const at = now();
    const ok =
      result.status !== null && result.status >= 200 && result.status <= 299;
    const attempts = d.attempts + 1;
    // An address refused as internal stays refused (WEBHOOK_ALLOW_PRIVATE is read at start):
    // no retry for 3 days, and the reason is kept on the row for the delivery lists.
    const again =
      ok || result.refused ? null : nextAttemptAt(attempts, d.createdAt, at);
    const outcome: DeliveryOutcome = {
      status: ok ? 'delivered' : again === null ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: again ?? at,
      statusCode: result.status,
      response: result.body,
    };
    await outbox.settle(d.id, outcome, at);
    if (
      d.endpointId !== null &&
      (await endpoints.recordResult(d.endpointId, ok, at, GIVE_UP_AFTER_MS))
    ) {
      this.deps.log.warn(
        { endpoint: d.endpointId },
        'webhook endpoint failing for 3 days: switched off',
      );
    }
  }

  private async render(d: Delivery, at: number): Promise<Rendered> {
    if (d.kind !== 'webhook') {
      if (!this.deps.renderOther) throw new Error(`no sender for ${d.kind}`);
      return this.deps.renderOther(d, at);
    }
    const endpoint =
      d.endpointId === null
        ? undefined
        : await this.deps.endpoints.find(d.endpointId);
    if (!endpoint) throw new Error('the endpoint is gone');
    const secret = this.deps.secrets.open(endpoint.secretEnc, endpoint.id);
    const sentAt = new Date(at);
    return {
      body: d.payload,
      headers: {
        'webhook-id': d.messageId,
        'webhook-timestamp': String(Math.floor(at / 1000)),
        'webhook-signature': new Webhook(secret).sign(
          d.messageId,
          sentAt,
          d.payload,
        ),
      },
    };
  }
}
