/** What the moderation feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { webhookRoutes, type WebhookRouteDeps } from './routes.js';
export { EVENT_TYPES, appEvent, isoOrNull, userEvent } from './events.js';
export type { EventType } from './events.js';
export type { WebhookService } from './webhook-service.js';
export type { OutboxRepo, WebhookEndpointRepo } from './repository.js';
export { SESSION_ENDING_EVENTS } from './events.js';
export {
  WEBHOOK_KIND,
  enqueueDirect,
  enqueueEvents,
  type DirectMessage,
  type LogoutTokenSubject,
  type OutboxEvent,
} from './outbox.js';
export type { DeliveryKind } from './repository.js';
export type { ModerationTables } from './tables.js';
export type { WebhookRouteDeps };

/** Webhook endpoints and their deliveries (docs/api.md §15.2). */
export async function register(
  app: FastifyInstance,
  deps: WebhookRouteDeps,
): Promise<void> {
  await routesInScope(app, webhookRoutes, deps);
}
