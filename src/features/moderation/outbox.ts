import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { ModerationTables } from './tables.js';
import type { DeliveryKind } from './repository.js';
import { randomToken } from '../../platform/crypto/random.js';

/** The outbox kind of a webhook event to a registered endpoint. */
export const WEBHOOK_KIND: DeliveryKind = 'webhook';

/**
 * An event to announce to the registered webhook endpoints. Written with `enqueueEvents` in
 * the transaction of the change it describes (the outbox pattern): committed together, or
 * neither. The delivery loop sends it later, at least once, in order per `orderKey`.
 */
export interface OutboxEvent {
  /** `user.banned`, `app.disabled`, … (docs/api.md §15). */
  type: string;
  /** Events with the same key reach an endpoint in the order they were written: `user:<uid>`. */
  orderKey: string;
  /** The event's `data`: never a secret or a password hash. */
  data: Record<string, unknown>;
}

/** A message to one address, not to the endpoints (an OpenID Connect logout token). */
export interface DirectMessage {
  kind: DeliveryKind;
  targetUrl: string;
  type: string;
  orderKey: string;
  payload: Record<string, unknown>;
}

/**
 * What a logout token says, without what is decided when it is sent (`iss`, `iat`, `exp`,
 * `jti`): the token is signed at each try, so a retry never carries an expired one and no key
 * or signed token waits in the outbox.
 */
export interface LogoutTokenSubject {
  /** The client (`aud`). */
  aud: string;
  /** The person, as in that client's ID tokens. */
  sub: string;
  /** The refresh family, the `sid` of that client's ID tokens. */
  sid: string;
}

/** The body of a webhook delivery (Standard Webhooks): `{ type, timestamp, data }`. */
export function webhookPayload(
  type: string,
  at: number,
  data: Record<string, unknown>,
): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

/** A fresh `webhook-id`, the same on every try of one message. */
export const newMessageId = () => `msg_${randomToken(18)}`;

/**
 * Whether an endpoint's list of event types (JSON text) names `type`: an element equal to it,
 * read with each backend's own JSON functions.
 */
function listsType(db: Kysely<ModerationTables>, type: string) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<boolean>`exists (select 1 from json_array_elements_text(cast(webhook_endpoints.events as json)) as wanted where wanted.value = ${type})`
    : sql<boolean>`exists (select 1 from json_each(webhook_endpoints.events) as wanted where wanted.value = ${type})`;
}

/**
 * One pending delivery per enabled endpoint that wants the type (an empty list wants every
 * type), as one INSERT … SELECT: the endpoints a change is announced to are those registered
 * when it commits.
 */
export async function enqueueEvents(
  db: Kysely<ModerationTables>,
  events: readonly OutboxEvent[],
  now: number,
): Promise<void> {
  for (const e of events) {
    const payload = webhookPayload(e.type, now, e.data);
    await db
      .insertInto('outbox')
      .columns([
        'kind',
        'endpoint_id',
        'target_url',
        'message_id',
        'event_type',
        'order_key',
        'payload',
        'status',
        'next_attempt_at',
        'created_at',
      ])
      .expression((eb) =>
        eb
          .selectFrom('webhook_endpoints')
          .select([
            sql.lit(WEBHOOK_KIND).as('kind'),
            'id',
            'url',
            sql.val(newMessageId()).as('message_id'),
            sql.val(e.type).as('event_type'),
            sql.val(e.orderKey).as('order_key'),
            sql.val(payload).as('payload'),
            sql.lit('pending').as('status'),
            sql<number>`cast(${now} as bigint)`.as('next_attempt_at'),
            sql<number>`cast(${now} as bigint)`.as('created_at'),
          ])
          .where('enabled', '=', 1)
          .where((w) => w.or([w('events', '=', '[]'), listsType(db, e.type)])),
      )
      .execute();
  }
}

/** Queues messages to single addresses, in the caller's transaction when `db` is one. */
export async function enqueueDirect(
  db: Kysely<ModerationTables>,
  messages: readonly DirectMessage[],
  now: number,
): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto('outbox')
    .values(
      messages.map((m) => ({
        kind: m.kind,
        endpoint_id: null,
        target_url: m.targetUrl,
        message_id: newMessageId(),
        event_type: m.type,
        order_key: m.orderKey,
        payload: JSON.stringify(m.payload),
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();
}
