import { EmptyReply, responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { WebhookService } from './webhook-service.js';
import type { Guard } from '../../platform/http/typed-scope.js';
import {
  CreatedWebhookReply,
  DeliveryIdBody,
  DeliveryListReply,
  LogoutDeliveryListReply,
  WebhookBody,
  WebhookIdBody,
  WebhookIdQuery,
  WebhookListReply,
  WebhookReply,
  WebhookUpdateBody,
} from './contract.js';

const tags = ['admin'];
const P = '/api/v1/auth/admin/webhooks';

/** What the routes below are given. */
export interface WebhookRouteDeps {
  services: { webhooks: WebhookService };
  guards: { admin: Guard };
}

/** Webhook endpoints for role admin (docs/api.md §15.2). */
export async function webhookRoutes(
  app: ContractApp,
  { services, guards }: WebhookRouteDeps,
) {
  const preHandler = guards.admin;
  const actor = (request: Parameters<typeof authOf>[0]) =>
    authOf(request).user.username;

  app.get(
    P,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Registered webhook endpoints, without their secrets',
        response: responses(WebhookListReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { webhooks: await services.webhooks.list() },
    }),
  );

  app.post(
    P,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Register an endpoint; the answer holds its signing secret, once',
        body: WebhookBody,
        response: responses(CreatedWebhookReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await services.webhooks.add(
        request.body,
        actor(request),
        callerOf(request),
      ),
    }),
  );

  app.post(
    `${P}/update`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Change an endpoint; enabled: true switches one back on after it was switched off',
        body: WebhookUpdateBody,
        response: responses(WebhookReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await services.webhooks.update(
        request.body,
        actor(request),
        callerOf(request),
      ),
    }),
  );

  app.post(
    `${P}/remove`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Remove an endpoint and its deliveries',
        body: WebhookIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await services.webhooks.remove(
        request.body.id,
        actor(request),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  app.get(
    `${P}/deliveries`,
    {
      preHandler,
      schema: {
        tags,
        summary: "An endpoint's recent deliveries, newest first",
        querystring: WebhookIdQuery,
        response: responses(DeliveryListReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: {
        deliveries: await services.webhooks.deliveries(request.query.id),
      },
    }),
  );

  app.get(
    `${P}/logout_deliveries`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'The newest back-channel logout tokens sent to clients, newest first',
        response: responses(LogoutDeliveryListReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { deliveries: await services.webhooks.logoutDeliveries() },
    }),
  );

  app.post(
    `${P}/test`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Send a webhook.test event to an endpoint',
        body: WebhookIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await services.webhooks.sendTest(
        request.body.id,
        actor(request),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  app.post(
    `${P}/redeliver`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Send one delivery again',
        body: DeliveryIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await services.webhooks.redeliver(
        request.body.id,
        actor(request),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );
}
