/** Webhook endpoints and their deliveries for role admin (docs/api.md §15.2). */
import { Type, type Static } from '@sinclair/typebox';
import {
  DataEnvelope,
  Str,
  StrList,
  View,
} from '../../platform/http/contract.js';

const webhookFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  /** The event types sent; empty: every type. */
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
};
/** An endpoint as listed: never its secret. */
export const WebhookView = View({
  ...webhookFields,
  /** Unix seconds: start of the current run of failures, and when it was switched off for them. */
  failing_since: Type.Union([Type.Integer(), Type.Null()]),
  disabled_at: Type.Union([Type.Integer(), Type.Null()]),
});
export type WebhookView = Static<typeof WebhookView>;
/** The answer to registering one: the only time `secret` appears. */
export const CreatedWebhook = View({ ...webhookFields, secret: Type.String() });
export type CreatedWebhook = Static<typeof CreatedWebhook>;
export const CreatedWebhookReply = DataEnvelope(CreatedWebhook);
export const WebhookListReply = DataEnvelope(
  View({ webhooks: Type.Array(WebhookView) }),
);

export const WebhookBody = Type.Object({
  url: Str(2048),
  description: Type.Optional(Str(500)),
  events: Type.Optional(StrList(20, 64)),
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookBody = Static<typeof WebhookBody>;
/** Changes to an endpoint: only the fields given; `enabled: true` also clears the switched-off notice. */
export const WebhookUpdateBody = Type.Object({
  id: Str(64),
  url: Type.Optional(Str(2048)),
  description: Type.Optional(Str(500)),
  events: Type.Optional(StrList(20, 64)),
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;
export const WebhookReply = DataEnvelope(WebhookView);
export const WebhookIdBody = Type.Object({ id: Str(64) });
export const WebhookIdQuery = Type.Object({
  id: Type.String({ maxLength: 64 }),
});
export const DeliveryIdBody = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

const deliveryFields = {
  id: Type.Integer(),
  event: Type.String(),
  status: Type.String(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  tries: Type.Integer(),
  created_at: Type.Integer(),
  last_try_at: Type.Union([Type.Integer(), Type.Null()]),
  next_try_at: Type.Union([Type.Integer(), Type.Null()]),
  response: Type.String(),
};
/** One delivery as the console lists it; times in unix seconds. */
export const DeliveryView = View(deliveryFields);
export type DeliveryView = Static<typeof DeliveryView>;
export const DeliveryListReply = DataEnvelope(
  View({ deliveries: Type.Array(DeliveryView) }),
);
/** A logout token's delivery: to which client, for which person (`sub`), at which address. */
export const LogoutDeliveryView = View({
  ...deliveryFields,
  client_id: Type.String(),
  sub: Type.String(),
  url: Type.String(),
});
export type LogoutDeliveryView = Static<typeof LogoutDeliveryView>;
export const LogoutDeliveryListReply = DataEnvelope(
  View({ deliveries: Type.Array(LogoutDeliveryView) }),
);
