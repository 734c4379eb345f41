import { sql, type Kysely, type Selectable } from 'kysely';
import type { ModerationTables, OutboxTable } from './tables.js';
import { WEBHOOK_KIND, newMessageId, webhookPayload } from './outbox.js';
import type {
  Delivery,
  DeliveryKind,
  DeliveryOutcome,
  OutboxRepo,
  WebhookEndpoint,
} from './repository.js';

function toDelivery(r: Selectable<OutboxTable>): Delivery {
  return {
    id: Number(r.id),
    kind: r.kind as Delivery['kind'],
    endpointId: r.endpoint_id,
    targetUrl: r.target_url,
    messageId: r.message_id,
    eventType: r.event_type,
    orderKey: r.order_key,
    payload: r.payload,
    status: r.status as Delivery['status'],
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastStatusCode:
      r.last_status_code === null ? null : Number(r.last_status_code),
    lastResponse: r.last_response,
    lastAttemptAt:
      r.last_attempt_at === null ? null : Number(r.last_attempt_at),
    createdAt: Number(r.created_at),
  };
}

export class SqlOutboxRepo implements OutboxRepo {
  constructor(
    private readonly db: Kysely<ModerationTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async claimDue(
    kind: DeliveryKind,
    now: number,
    leaseMs: number,
    limit: number,
    perTarget: number,
  ): Promise<Delivery[]> {
    // Nothing due is the usual case. A read takes no write lock, so an idle loop never holds up
    // the writes of another instance on the same SQLite file (or waits on them).
    const due = await this.db
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('lease_until', '<=', now)
      .where('kind', '=', kind)
      .limit(1)
      .executeTakeFirst();
    if (!due) return [];
    // Fair to every address: each one's oldest due deliveries first (rank 1 of every address,
    // then rank 2, …), and no more per address than `perTarget` leased at once by all instances
    // together, so a few addresses that never answer cannot take every slot. SQLite has one
    // writer at a time, so the UPDATE alone is the lease; PostgreSQL skips rows another
    // instance is leasing this moment instead of waiting for them.
    const lock = this.kind === 'postgres' ? sql`for update skip locked` : sql``;
    const { rows } = await sql<Selectable<OutboxTable>>`
      update outbox set lease_until = ${now + leaseMs}
      where id in (
        select l.id from outbox l
        where l.id in (
          select c.id from (
            select o.id, o.target_url, row_number() over (partition by o.target_url order by o.id) as pos
            from outbox o
            where o.kind = ${kind} and o.status = 'pending' and o.next_attempt_at <= ${now} and o.lease_until <= ${now}
              and not exists (select 1 from outbox p where p.target_url = o.target_url and p.order_key = o.order_key and p.status = 'pending' and p.id < o.id)
              and (o.endpoint_id is null or exists (select 1 from webhook_endpoints e where e.id = o.endpoint_id and e.enabled = 1))
          ) c
          where c.pos <= ${perTarget}
            and c.pos + (select count(*) from outbox f where f.target_url = c.target_url and f.status = 'pending' and f.lease_until > ${now}) <= ${perTarget}
          order by c.pos, c.id limit ${limit}
        )
        and l.status = 'pending' and l.lease_until <= ${now}
        ${lock}
      )
      returning *`.execute(this.db);
    return rows.map(toDelivery).sort((a, b) => a.id - b.id);
  }

  async settle(id: number, o: DeliveryOutcome, now: number): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({
        status: o.status,
        attempts: o.attempts,
        next_attempt_at: o.nextAttemptAt,
        lease_until: 0,
        last_status_code: o.statusCode,
        last_response: o.response,
        last_attempt_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async recent(endpointId: string, limit: number): Promise<Delivery[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async recentLogouts(limit: number): Promise<Delivery[]> {
    // Only messages to single addresses have no endpoint, so the (endpoint_id, id) index finds them.
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('endpoint_id', 'is', null)
      .where('kind', '=', 'backchannel' satisfies DeliveryKind)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async find(id: number): Promise<Delivery | undefined> {
    const r = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toDelivery(r);
  }

  async redeliver(id: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('outbox')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_until: 0,
        created_at: now,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async enqueueFor(
    endpoint: Pick<WebhookEndpoint, 'id' | 'url'>,
    type: string,
    data: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({
        kind: WEBHOOK_KIND,
        endpoint_id: endpoint.id,
        target_url: endpoint.url,
        message_id: newMessageId(),
        event_type: type,
        order_key: `test:${newMessageId()}`,
        payload: webhookPayload(type, now, data),
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
  }

  async purgeSettled(before: number): Promise<number> {
    const r = await this.db
      .deleteFrom('outbox')
      .where('status', '!=', 'pending')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
