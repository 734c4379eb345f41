import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  Database,
  OutboxTable,
  WebhookEndpointsTable,
} from '../../platform/sql/schema.js';
import { BACKCHANNEL_KIND } from '../../platform/sql/logout-outbox.js';
import { newMessageId, webhookPayload } from '../../platform/sql/outbox.js';
import type {
  Delivery,
  DeliveryKind,
  DeliveryOutcome,
  OutboxRepo,
  WebhookEndpoint,
  WebhookEndpointRepo,
} from './repository.js';

function toEndpoint(r: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: JSON.parse(r.events) as string[],
    enabled: Number(r.enabled) === 1,
    secretEnc: r.secret_enc,
    failingSince: r.failing_since === null ? null : Number(r.failing_since),
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

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

export class SqlWebhookEndpointRepo implements WebhookEndpointRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(e: WebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhook_endpoints')
      .values({
        id: e.id,
        url: e.url,
        description: e.description,
        events: JSON.stringify(e.events),
        enabled: e.enabled ? 1 : 0,
        secret_enc: e.secretEnc,
        failing_since: null,
        disabled_at: null,
        created_at: e.createdAt,
        updated_at: e.updatedAt,
      })
      .execute();
  }

  async list(): Promise<WebhookEndpoint[]> {
    return (
      await this.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map(toEndpoint);
  }

  async find(id: string): Promise<WebhookEndpoint | undefined> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toEndpoint(r);
  }

  async update(
    id: string,
    p: Parameters<WebhookEndpointRepo['update']>[1],
    now: number,
  ): Promise<WebhookEndpoint | undefined> {
    if (p.url === undefined) return this.updateRow(this.db, id, p, now);
    // Deliveries carry their address: those still to go (or sent again later) follow the endpoint.
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await this.updateRow(trx, id, p, now);
      if (endpoint)
        await trx
          .updateTable('outbox')
          .set({ target_url: endpoint.url })
          .where('endpoint_id', '=', id)
          .execute();
      return endpoint;
    });
  }

  private async updateRow(
    db: Kysely<Database>,
    id: string,
    p: Parameters<WebhookEndpointRepo['update']>[1],
    now: number,
  ): Promise<WebhookEndpoint | undefined> {
    const r = await db
      .updateTable('webhook_endpoints')
      .set({
        ...(p.url !== undefined && { url: p.url }),
        ...(p.description !== undefined && { description: p.description }),
        ...(p.events !== undefined && { events: JSON.stringify(p.events) }),
        ...(p.enabled !== undefined && { enabled: p.enabled ? 1 : 0 }),
        ...(p.enabled === true && { failing_since: null, disabled_at: null }),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return r && toEndpoint(r);
  }

  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('outbox').where('endpoint_id', '=', id).execute();
      const r = await trx
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async recordResult(
    id: string,
    ok: boolean,
    now: number,
    disableAfterMs: number,
  ): Promise<boolean> {
    if (ok) {
      await this.db
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', '=', id)
        .where('failing_since', 'is not', null)
        .execute();
      return false;
    }
    await this.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: now })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute();
    // One conditional update: of several instances seeing the same failure, one switches it off.
    const off = await this.db
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('failing_since', '<=', now - disableAfterMs)
      .executeTakeFirst();
    return Number(off.numUpdatedRows) > 0;
  }
}

export class SqlOutboxRepo implements OutboxRepo {
  constructor(
    private readonly db: Kysely<Database>,
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
      .where('kind', '=', BACKCHANNEL_KIND)
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
        kind: 'webhook',
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
