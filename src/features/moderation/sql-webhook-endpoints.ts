import type { Kysely, Selectable } from 'kysely';
import type { ModerationTables, WebhookEndpointsTable } from './tables.js';
import type { WebhookEndpoint, WebhookEndpointRepo } from './repository.js';

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

export class SqlWebhookEndpointRepo implements WebhookEndpointRepo {
  constructor(private readonly db: Kysely<ModerationTables>) {}

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
    db: Kysely<ModerationTables>,
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
