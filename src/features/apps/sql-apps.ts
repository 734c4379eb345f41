import { sql, type Kysely, type Selectable } from 'kysely';
import { asciiLower } from '../accounts/index.js';
import type { AccountsTables } from '../accounts/index.js';
import type { AppsTable, AppsTables } from './tables.js';
import {
  BackchannelCapReached,
  type App,
  type AppPatch,
  type AppRepo,
  type BackchannelCap,
  type ClientType,
  type NewApp,
} from './repository.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { narrow } from '../../platform/sql/narrow.js';
import {
  enqueueEvents,
  type ModerationTables,
  type OutboxEvent,
} from '../moderation/index.js';

/**
 * The apps, and what their writes reach besides: the owner's row, locked while an owner's
 * apps are counted and searched by username; the outbox their changes are announced through.
 */
type AppWriteTables = AppsTables &
  Pick<AccountsTables, 'users'> &
  ModerationTables;

const DEFAULT_GRANT_TYPES = ['authorization_code', 'refresh_token'];

function toApp(r: Selectable<AppsTable>): App {
  return {
    clientId: r.client_id,
    ownerId: Number(r.owner_id),
    displayName: r.display_name,
    homepage: r.homepage,
    scopes: JSON.parse(r.scopes) as string[],
    redirectUris: JSON.parse(r.redirect_uris) as string[],
    corsOrigins: JSON.parse(r.cors_origins) as string[],
    clientType: r.client_type as ClientType,
    secretHash: r.secret_hash,
    status: r.status,
    grantTypes: JSON.parse(r.grant_types) as string[],
    tokenEndpointAuthMethod: r.token_endpoint_auth_method,
    postLogoutRedirectUris: JSON.parse(r.post_logout_redirect_uris) as string[],
    backchannelLogoutUri: r.backchannel_logout_uri,
    backchannelLogoutSessionRequired:
      Number(r.backchannel_logout_session_required) === 1,
    statusReason: r.status_reason,
    statusChangedAt:
      r.status_changed_at === null ? null : Number(r.status_changed_at),
    adminScopes: r.admin_scopes.split(' ').filter(Boolean),
    requiredRoles: JSON.parse(r.required_roles) as string[],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SqlAppRepo implements AppRepo {
  constructor(
    private readonly db: Kysely<AppWriteTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async create(a: NewApp, now: number, cap?: BackchannelCap): Promise<App> {
    if (cap && a.backchannelLogoutUri)
      return this.withinCap(cap, null, (trx) => this.insert(trx, a, now));
    return this.insert(this.db, a, now);
  }

  /**
   * Runs `write` when the owner's apps with a back-channel address, other than `clientId`,
   * are fewer than the cap; the count and the write must not interleave with another for the
   * same owner: PostgreSQL locks the owner's row, SQLite runs one write transaction at a time.
   */
  private withinCap<T>(
    cap: BackchannelCap,
    clientId: string | null,
    write: (trx: Kysely<AppWriteTables>) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.kind === 'postgres')
        await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', cap.ownerId)
          .forUpdate()
          .execute();
      let others = trx
        .selectFrom('apps')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', cap.ownerId)
        .where('backchannel_logout_uri', '!=', '');
      if (clientId !== null) others = others.where('client_id', '!=', clientId);
      const { n } = await others.executeTakeFirstOrThrow();
      if (Number(n) >= cap.max) throw new BackchannelCapReached();
      return write(trx);
    });
  }

  private async insert(
    db: Kysely<AppWriteTables>,
    a: NewApp,
    now: number,
  ): Promise<App> {
    try {
      const row = await db
        .insertInto('apps')
        .values({
          client_id: a.clientId,
          owner_id: a.ownerId,
          display_name: a.displayName,
          homepage: a.homepage,
          scopes: JSON.stringify(a.scopes),
          redirect_uris: JSON.stringify(a.redirectUris),
          cors_origins: JSON.stringify(a.corsOrigins),
          client_type: a.clientType,
          secret_hash: a.secretHash,
          status: a.status,
          grant_types: JSON.stringify(a.grantTypes ?? DEFAULT_GRANT_TYPES),
          token_endpoint_auth_method:
            a.tokenEndpointAuthMethod ??
            (a.clientType === 'public' ? 'none' : 'client_secret_basic'),
          post_logout_redirect_uris: JSON.stringify(
            a.postLogoutRedirectUris ?? [],
          ),
          backchannel_logout_uri: a.backchannelLogoutUri ?? '',
          backchannel_logout_session_required:
            a.backchannelLogoutSessionRequired ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toApp(row);
    } catch (err) {
      return mapUnique(err);
    }
  }

  async findById(clientId: string): Promise<App | undefined> {
    const r = await this.db
      .selectFrom('apps')
      .selectAll()
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return r && toApp(r);
  }

  async listByOwner(ownerId: number): Promise<App[]> {
    const rows = await this.db
      .selectFrom('apps')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at')
      .orderBy('client_id')
      .execute();
    return rows.map(toApp);
  }

  async requiringRole(role: string): Promise<App[]> {
    // A JSON array of role names holds `"role"` exactly when it names that role.
    const rows = await this.db
      .selectFrom('apps')
      .selectAll()
      .where('required_roles', 'like', `%${JSON.stringify(role)}%`)
      .orderBy('client_id')
      .execute();
    return rows.map(toApp).filter((a) => a.requiredRoles.includes(role));
  }

  async listActive(): Promise<App[]> {
    const rows = await this.db
      .selectFrom('apps')
      .selectAll()
      .where('status', '=', 'active')
      .execute();
    return rows.map(toApp);
  }

  async update(
    clientId: string,
    p: AppPatch,
    now: number,
    events: readonly OutboxEvent[] = [],
    cap?: BackchannelCap,
  ): Promise<App | undefined> {
    if (cap && p.backchannelLogoutUri) {
      return this.withinCap(cap, clientId, async (trx) => {
        const app = await this.updateRow(trx, clientId, p, now);
        if (app) await enqueueEvents(narrow(trx), events, now);
        return app;
      });
    }
    if (events.length === 0) return this.updateRow(this.db, clientId, p, now);
    // The event is queued only when the app exists: no row, no change to announce.
    return this.db.transaction().execute(async (trx) => {
      const app = await this.updateRow(trx, clientId, p, now);
      if (app) await enqueueEvents(narrow(trx), events, now);
      return app;
    });
  }

  private async updateRow(
    db: Kysely<AppWriteTables>,
    clientId: string,
    p: AppPatch,
    now: number,
  ): Promise<App | undefined> {
    const row = await db
      .updateTable('apps')
      .set({
        ...(p.displayName !== undefined && { display_name: p.displayName }),
        ...(p.homepage !== undefined && { homepage: p.homepage }),
        ...(p.scopes !== undefined && { scopes: JSON.stringify(p.scopes) }),
        ...(p.redirectUris !== undefined && {
          redirect_uris: JSON.stringify(p.redirectUris),
        }),
        ...(p.corsOrigins !== undefined && {
          cors_origins: JSON.stringify(p.corsOrigins),
        }),
        ...(p.secretHash !== undefined && { secret_hash: p.secretHash }),
        ...(p.status !== undefined && { status: p.status }),
        ...(p.grantTypes !== undefined && {
          grant_types: JSON.stringify(p.grantTypes),
        }),
        ...(p.tokenEndpointAuthMethod !== undefined && {
          token_endpoint_auth_method: p.tokenEndpointAuthMethod,
        }),
        ...(p.postLogoutRedirectUris !== undefined && {
          post_logout_redirect_uris: JSON.stringify(p.postLogoutRedirectUris),
        }),
        ...(p.backchannelLogoutUri !== undefined && {
          backchannel_logout_uri: p.backchannelLogoutUri,
        }),
        ...(p.backchannelLogoutSessionRequired !== undefined && {
          backchannel_logout_session_required:
            p.backchannelLogoutSessionRequired ? 1 : 0,
        }),
        ...(p.statusReason !== undefined && { status_reason: p.statusReason }),
        ...(p.requiredRoles !== undefined && {
          required_roles: JSON.stringify(p.requiredRoles),
        }),
        ...(p.statusChangedAt !== undefined && {
          status_changed_at: p.statusChangedAt,
        }),
        ...(p.adminScopes !== undefined && {
          admin_scopes: p.adminScopes.join(' '),
        }),
        updated_at: now,
      })
      .where('client_id', '=', clientId)
      .returningAll()
      .executeTakeFirst();
    return row && toApp(row);
  }

  async changedSince(since: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('apps')
      .select('client_id')
      .where('updated_at', '>=', since)
      .execute();
    return rows.map((r) => r.client_id);
  }

  async search(
    query: string,
    offset: number,
    limit: number,
  ): Promise<{ apps: App[]; total: number }> {
    let q = this.db
      .selectFrom('apps')
      .leftJoin('users', 'users.id', 'apps.owner_id');
    if (query) {
      const pattern = `%${asciiLower(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(
        sql<boolean>`(lower(apps.display_name) like ${pattern} escape '\\' or lower(apps.client_id) like ${pattern} escape '\\' or users.username_lower like ${pattern} escape '\\')`,
      );
    }
    const [rows, count] = await Promise.all([
      q
        .selectAll('apps')
        .orderBy('apps.created_at', 'desc')
        .orderBy('apps.client_id')
        .offset(offset)
        .limit(limit)
        .execute(),
      q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { apps: rows.map(toApp), total: Number(count.n) };
  }
}
