import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { randomToken } from '../crypto/random.js';

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
  kind: string;
  targetUrl: string;
  type: string;
  orderKey: string;
  payload: Record<string, unknown>;
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
 * One pending delivery per enabled endpoint that wants the type (an empty list wants every
 * type), as one INSERT … SELECT: the endpoints a change is announced to are those registered
 * when it commits.
 */
export async function enqueueEvents(
  db: Kysely<Database>,
  events: readonly OutboxEvent[],
  now: number,
): Promise<void> {
  for (const e of events) {
    const payload = webhookPayload(e.type, now, e.data);
    const wanted = `%${JSON.stringify(e.type)}%`;
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
            sql.lit('webhook').as('kind'),
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
          .where((w) =>
            w.or([w('events', '=', '[]'), w('events', 'like', wanted)]),
          ),
      )
      .execute();
  }
}

/** Queues messages to single addresses, in the caller's transaction when `db` is one. */
export async function enqueueDirect(
  db: Kysely<Database>,
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
