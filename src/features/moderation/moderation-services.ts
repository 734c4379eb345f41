import { SecretBox } from '../../platform/crypto/secret-box.js';
import { DeliveryLoop, type Rendered } from './delivery.js';
import type { Delivery } from './repository.js';
import { WebhookService } from './webhook-service.js';
import type { Config } from '../../config/index.js';
import type { AuditLog } from '../audit/index.js';
import type { OutboxRepo, WebhookEndpointRepo } from './repository.js';
import type { Logger } from 'pino';

export interface ModerationDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly audit: AuditLog;
  readonly storage: {
    readonly webhooks: WebhookEndpointRepo;
    readonly outbox: OutboxRepo;
  };
  readonly config: Pick<Config, 'jwtSecret' | 'webhookAllowPrivate'>;
}

export interface ModerationServices {
  webhooks: WebhookService;
  delivery: DeliveryLoop;
}

/** The webhook administration and the loop that sends the outbox, sharing one secret box. */
export function createModerationServices(
  ctx: ModerationDeps,
  renderOther?: (d: Delivery, now: number) => Promise<Rendered>,
): ModerationServices {
  const secrets = new SecretBox(ctx.config.jwtSecret, 'webhook-signing-secret');
  const { webhooks: endpoints, outbox } = ctx.storage;
  return {
    webhooks: new WebhookService({ ...ctx, endpoints, outbox, secrets }),
    delivery: new DeliveryLoop({
      outbox,
      endpoints,
      secrets,
      now: ctx.now,
      log: ctx.log,
      allowPrivate: ctx.config.webhookAllowPrivate,
      renderOther,
    }),
  };
}
