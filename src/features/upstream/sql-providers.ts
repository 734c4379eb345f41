import type { Kysely, Selectable } from 'kysely';
import type { UpstreamTables, UpstreamProvidersTable } from './tables.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import type {
  ProviderPatch,
  ProviderRecord,
  ProviderSettings,
  ProviderType,
  UpstreamProviderRepo,
} from './repository.js';

function toProvider(r: Selectable<UpstreamProvidersTable>): ProviderRecord {
  return {
    id: r.id,
    type: r.type as ProviderType,
    name: r.name,
    clientId: r.client_id,
    clientSecretEnc: r.client_secret_enc,
    apiKeyEnc: r.api_key_enc,
    issuer: r.issuer,
    scopes: r.scopes,
    settings: JSON.parse(r.settings) as ProviderSettings,
    enabled: Number(r.enabled) === 1,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SqlUpstreamProviderRepo implements UpstreamProviderRepo {
  constructor(private readonly db: Kysely<UpstreamTables>) {}

  async list(): Promise<ProviderRecord[]> {
    const rows = await this.db
      .selectFrom('upstream_providers')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toProvider);
  }

  async find(id: string): Promise<ProviderRecord | undefined> {
    const r = await this.db
      .selectFrom('upstream_providers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toProvider(r);
  }

  async create(p: ProviderRecord): Promise<void> {
    await this.db
      .insertInto('upstream_providers')
      .values({
        id: p.id,
        type: p.type,
        name: p.name,
        client_id: p.clientId,
        client_secret_enc: p.clientSecretEnc,
        api_key_enc: p.apiKeyEnc,
        issuer: p.issuer,
        scopes: p.scopes,
        settings: JSON.stringify(p.settings),
        enabled: p.enabled ? 1 : 0,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
      })
      .execute()
      .catch(mapUnique);
  }

  async update(
    id: string,
    p: ProviderPatch,
    now: number,
  ): Promise<ProviderRecord | undefined> {
    await this.db
      .updateTable('upstream_providers')
      .set({
        ...(p.name !== undefined && { name: p.name }),
        ...(p.clientId !== undefined && { client_id: p.clientId }),
        ...(p.clientSecretEnc !== undefined && {
          client_secret_enc: p.clientSecretEnc,
        }),
        ...(p.apiKeyEnc !== undefined && { api_key_enc: p.apiKeyEnc }),
        ...(p.issuer !== undefined && { issuer: p.issuer }),
        ...(p.scopes !== undefined && { scopes: p.scopes }),
        ...(p.settings !== undefined && {
          settings: JSON.stringify(p.settings),
        }),
        ...(p.enabled !== undefined && { enabled: p.enabled ? 1 : 0 }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    return this.find(id);
  }

  async remove(id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('upstream_providers')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
