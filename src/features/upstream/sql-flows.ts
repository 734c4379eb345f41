import type { Kysely, Selectable } from 'kysely';
import type { UpstreamTables, UpstreamFlowsTable } from './tables.js';
import type { FlowKind, UpstreamFlow, UpstreamFlowRepo } from './repository.js';

function toFlow(r: Selectable<UpstreamFlowsTable>): UpstreamFlow {
  return {
    keyHash: r.key_hash,
    kind: r.kind as FlowKind,
    providerId: r.provider_id,
    browserHash: r.browser_hash,
    userId: r.user_id === null ? null : Number(r.user_id),
    sessionKey: r.session_key,
    next: r.next,
    payload: r.payload,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: r.used_at === null ? null : Number(r.used_at),
  };
}

export class SqlUpstreamFlowRepo implements UpstreamFlowRepo {
  constructor(private readonly db: Kysely<UpstreamTables>) {}

  async put(f: Omit<UpstreamFlow, 'usedAt'>): Promise<void> {
    await this.db
      .insertInto('upstream_flows')
      .values({
        key_hash: f.keyHash,
        kind: f.kind,
        provider_id: f.providerId,
        browser_hash: f.browserHash,
        user_id: f.userId,
        session_key: f.sessionKey,
        next: f.next,
        payload: f.payload,
        created_at: f.createdAt,
        expires_at: f.expiresAt,
        used_at: null,
      })
      .execute();
  }

  async find(keyHash: string): Promise<UpstreamFlow | undefined> {
    const r = await this.db
      .selectFrom('upstream_flows')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    return r && toFlow(r);
  }

  async consume(keyHash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('upstream_flows')
      .set({ used_at: now })
      .where('key_hash', '=', keyHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async purgeExpired(now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('upstream_flows')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
