import { randomBytes } from 'node:crypto';
import { badParam, fail } from '../../errors/index.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { randomToken } from '../../platform/crypto/random.js';
import { refusedTarget } from '../../platform/net/guarded-post.js';
import type { LogoutTokenSubject } from './outbox.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type {
  CreatedWebhook,
  DeliveryView,
  LogoutDeliveryView,
  WebhookBody,
  WebhookUpdateBody,
  WebhookView,
} from './contract.js';
import { isEventType, TEST_EVENT } from './events.js';
import type {
  Delivery,
  OutboxRepo,
  WebhookEndpoint,
  WebhookEndpointRepo,
} from './repository.js';
import type { Config } from '../../config/index.js';
import type { AuditLog } from '../audit/index.js';

const RECENT_DELIVERIES = 50;
const seconds = (ms: number | null) =>
  ms === null ? null : Math.floor(ms / 1000);

export function webhookView(e: WebhookEndpoint): WebhookView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    failing_since: seconds(e.failingSince),
    disabled_at: seconds(e.disabledAt),
  };
}

function deliveryView(d: Delivery): DeliveryView {
  return {
    id: d.id,
    event: d.eventType,
    status: d.status,
    http_status: d.lastStatusCode,
    tries: d.attempts,
    created_at: Math.floor(d.createdAt / 1000),
    last_try_at: seconds(d.lastAttemptAt),
    next_try_at:
      d.status === 'pending' ? Math.floor(d.nextAttemptAt / 1000) : null,
    response: d.lastResponse,
  };
}

/** Whom a logout token is for, as queued (oidc/logout-outbox.ts). */
function logoutSubject(d: Delivery): { aud: string; sub: string } {
  try {
    const { aud, sub } = JSON.parse(d.payload) as Partial<
      Record<keyof LogoutTokenSubject, unknown>
    >;
    return {
      aud: typeof aud === 'string' ? aud : '',
      sub: typeof sub === 'string' ? sub : '',
    };
  } catch {
    return { aud: '', sub: '' };
  }
}

function logoutDeliveryView(d: Delivery): LogoutDeliveryView {
  const { aud, sub } = logoutSubject(d);
  return { ...deliveryView(d), client_id: aud, sub, url: d.targetUrl };
}

/** `http(s)://…`, parseable, and (unless WEBHOOK_ALLOW_PRIVATE=on) not an internal address. */
function targetUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badParam('url');
  }
  if (
    !/^https?:\/\//i.test(raw.trim()) ||
    url.username ||
    url.password ||
    refusedTarget(url, allowPrivate)
  )
    throw badParam('url');
  return url.toString();
}

/** The distinct event types asked for: 400 `参数错误：events` for an unknown one. */
function eventTypes(asked: readonly string[]): string[] {
  const events = [...new Set(asked)];
  if (!events.every(isEventType)) throw badParam('events');
  return events;
}

export type WebhookDeps = {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly config: Pick<Config, 'webhookAllowPrivate'>;
} & { endpoints: WebhookEndpointRepo; outbox: OutboxRepo; secrets: SecretBox };

/** Registering webhook endpoints and looking after their deliveries (API, console, CLI). */
export class WebhookService {
  constructor(private readonly ctx: WebhookDeps) {}

  async add(
    body: WebhookBody,
    actor: string,
    caller?: Caller,
  ): Promise<CreatedWebhook> {
    const url = targetUrl(body.url, this.ctx.config.webhookAllowPrivate);
    const events = eventTypes(body.events ?? []);
    const now = this.ctx.now();
    const id = `wh_${randomToken(12)}`;
    // Standard Webhooks secrets: `whsec_` and base64 of 24 to 64 random bytes.
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const endpoint: WebhookEndpoint = {
      id,
      url,
      description: (body.description ?? '').trim(),
      events,
      enabled: body.enabled ?? true,
      secretEnc: this.ctx.secrets.seal(secret, id),
      failingSince: null,
      disabledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.ctx.endpoints.create(endpoint);
    await this.ctx.audit.record('webhook.add', {
      actor,
      ip: caller?.ip ?? null,
      target: id,
      detail: { url, events },
    });
    return {
      id,
      url,
      description: endpoint.description,
      events,
      enabled: endpoint.enabled,
      secret,
    };
  }

  async list(): Promise<WebhookView[]> {
    return (await this.ctx.endpoints.list()).map(webhookView);
  }

  /**
   * Changes the fields given. Switching an endpoint on (one switched off after failing for
   * 3 days, or by hand) starts its failure count afresh and removes the dashboard's notice;
   * its pending deliveries go out again.
   */
  async update(
    body: WebhookUpdateBody,
    actor: string,
    caller?: Caller,
  ): Promise<WebhookView> {
    const patch = {
      ...(body.url !== undefined && {
        url: targetUrl(body.url, this.ctx.config.webhookAllowPrivate),
      }),
      ...(body.description !== undefined && {
        description: body.description.trim(),
      }),
      ...(body.events !== undefined && { events: eventTypes(body.events) }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
    };
    const endpoint = await this.ctx.endpoints.update(
      body.id,
      patch,
      this.ctx.now(),
    );
    if (!endpoint) throw fail('unknownWebhook');
    await this.ctx.audit.record('webhook.update', {
      actor,
      ip: caller?.ip ?? null,
      target: endpoint.id,
      detail: patch,
    });
    return webhookView(endpoint);
  }

  async remove(id: string, actor: string, caller?: Caller): Promise<void> {
    if (!(await this.ctx.endpoints.remove(id))) throw fail('unknownWebhook');
    await this.ctx.audit.record('webhook.remove', {
      actor,
      ip: caller?.ip ?? null,
      target: id,
    });
  }

  async deliveries(id: string): Promise<DeliveryView[]> {
    await this.endpoint(id);
    return (await this.ctx.outbox.recent(id, RECENT_DELIVERIES)).map(
      deliveryView,
    );
  }

  /** The newest logout tokens sent to clients (OpenID Connect Back-Channel Logout). */
  async logoutDeliveries(): Promise<LogoutDeliveryView[]> {
    return (await this.ctx.outbox.recentLogouts(RECENT_DELIVERIES)).map(
      logoutDeliveryView,
    );
  }

  /** Queues a `webhook.test` event for one endpoint, whatever types it asked for. */
  async sendTest(id: string, actor: string, caller?: Caller): Promise<void> {
    const endpoint = await this.endpoint(id);
    await this.ctx.outbox.enqueueFor(
      endpoint,
      TEST_EVENT,
      { endpoint: endpoint.id, sent_by: actor },
      this.ctx.now(),
    );
    await this.ctx.audit.record('webhook.test', {
      actor,
      ip: caller?.ip ?? null,
      target: id,
    });
  }

  /**
   * Sends one delivery again, now, with a fresh retry window: a webhook event, or a logout
   * token (signed afresh when it is sent, so it is never stale).
   */
  async redeliver(
    deliveryId: number,
    actor: string,
    caller?: Caller,
  ): Promise<void> {
    const delivery = await this.ctx.outbox.find(deliveryId);
    const target =
      delivery && (delivery.endpointId ?? logoutSubject(delivery).aud);
    if (!delivery || !target) throw fail('unknownDelivery');
    await this.ctx.outbox.redeliver(deliveryId, this.ctx.now());
    await this.ctx.audit.record('webhook.redeliver', {
      actor,
      ip: caller?.ip ?? null,
      target,
      detail: { delivery: deliveryId, kind: delivery.kind },
    });
  }

  /** Endpoints switched off for failing, for the dashboard's notice. */
  async switchedOff(): Promise<WebhookView[]> {
    return (await this.ctx.endpoints.list())
      .filter((e) => e.disabledAt !== null && !e.enabled)
      .map(webhookView);
  }

  private async endpoint(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.ctx.endpoints.find(id);
    if (!endpoint) throw fail('unknownWebhook');
    return endpoint;
  }
}
