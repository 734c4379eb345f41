import { randomBytes } from 'node:crypto';
import { AppError, MSG, badParam } from '../errors/index.js';
import { nextStatus, viewStatus } from '../domain/app-state.js';
import { checkAppFields, isClientType, isReservedClientId, isValidClientId, toUnixSeconds, type AppFieldsInput } from '../domain/clients.js';
import { UniqueViolation, type App, type AppStatus, type User } from '../storage/types.js';
import type { AppView } from '../domain/wire.js';
import type { ServiceContext } from './context.js';
import { randomToken, sha256Hex } from './crypto.js';

export function appView(a: App): AppView {
  return {
    client_id: a.clientId,
    display_name: a.displayName,
    homepage: a.homepage,
    scopes: a.scopes,
    redirect_uris: a.redirectUris,
    cors_origins: a.corsOrigins,
    client_type: a.clientType,
    status: viewStatus(a.status),
    has_secret: a.secretHash !== null,
    created_at: toUnixSeconds(a.createdAt),
    updated_at: toUnixSeconds(a.updatedAt),
  };
}

export interface CreateAppInput extends AppFieldsInput {
  client_type?: string;
  client_id?: string;
}

export interface UpdateAppInput extends AppFieldsInput {
  client_id: string;
}

/** Who acts, for the owner check and the audit row. */
export interface AppActor {
  user: User;
  ip: string | null;
}

/** 256 bits of randomness, base64url (43 characters). */
const newSecret = (): string => randomToken(32);
const newClientId = (): string => randomBytes(12).toString('hex');

/** Application self-management (CONTRACT §3). */
export class AppService {
  constructor(private readonly ctx: ServiceContext) {}

  private get reservedIds(): string[] {
    return [this.ctx.config.centerAppId, this.ctx.config.gameAppId];
  }

  /** Every app write tells caches (CORS whitelist) here and on other instances. */
  private changed(clientId: string): void {
    this.ctx.bus.publish({ type: 'app', clientId });
  }

  private audit(action: string, actor: AppActor, clientId: string, detail: Record<string, unknown> = {}): Promise<void> {
    return this.ctx.audit.record(action, { actor: actor.user.username, ip: actor.ip, target: clientId, detail });
  }

  /** The app, if the actor owns it or is an admin. */
  private async owned(actor: AppActor, clientId: string): Promise<App> {
    const app = await this.ctx.storage.apps.findById(clientId);
    if (!app) throw new AppError(404, MSG.unknownApp);
    if (app.ownerId !== actor.user.id && !actor.user.roles.includes('admin')) throw new AppError(403, MSG.notAppOwner);
    return app;
  }

  async list(owner: User): Promise<AppView[]> {
    return (await this.ctx.storage.apps.listByOwner(owner.id)).map(appView);
  }

  async create(actor: AppActor, input: CreateAppInput): Promise<AppView & { client_secret?: string }> {
    const clientType = input.client_type ?? 'confidential';
    if (!isClientType(clientType)) throw badParam('client_type');
    if (input.client_id !== undefined && !isValidClientId(input.client_id)) throw badParam('client_id');
    const fields = checkAppFields(input, true);
    if (!fields.ok) throw new AppError(fields.status, fields.msg);
    if (input.client_id !== undefined && isReservedClientId(input.client_id, this.reservedIds)) throw new AppError(409, MSG.clientIdTaken);
    const secret = clientType === 'confidential' ? newSecret() : undefined;
    const base = {
      ownerId: actor.user.id,
      displayName: fields.value.displayName!,
      homepage: fields.value.homepage ?? '',
      scopes: fields.value.scopes ?? [],
      redirectUris: fields.value.redirectUris!,
      corsOrigins: fields.value.corsOrigins ?? [],
      clientType,
      secretHash: secret === undefined ? null : sha256Hex(secret),
      status: 'active',
    };
    let app: App | undefined;
    // A generated id that collides is simply drawn again; a chosen one is the caller's 409.
    for (let attempt = 0; !app; attempt++) {
      const clientId = input.client_id ?? newClientId();
      try {
        app = await this.ctx.storage.apps.create({ ...base, clientId }, this.ctx.now());
      } catch (err) {
        if (!(err instanceof UniqueViolation) || input.client_id !== undefined || attempt >= 3) {
          if (err instanceof UniqueViolation) throw new AppError(409, MSG.clientIdTaken);
          throw err;
        }
      }
    }
    this.changed(app.clientId);
    await this.audit('app.create', actor, app.clientId, { client_type: clientType });
    return secret === undefined ? appView(app) : { ...appView(app), client_secret: secret };
  }

  async update(actor: AppActor, input: UpdateAppInput): Promise<AppView> {
    await this.owned(actor, input.client_id);
    const fields = checkAppFields(input, false);
    if (!fields.ok) throw new AppError(fields.status, fields.msg);
    const app = await this.ctx.storage.apps.update(input.client_id, fields.value, this.ctx.now());
    if (!app) throw new AppError(404, MSG.unknownApp);
    this.changed(app.clientId);
    await this.audit('app.update', actor, app.clientId, { fields: Object.keys(fields.value) });
    return appView(app);
  }

  /** The old secret stops working with this write: exchange always reads the stored hash. */
  async rotateSecret(actor: AppActor, clientId: string): Promise<{ client_id: string; client_secret: string }> {
    const current = await this.owned(actor, clientId);
    if (current.clientType === 'public') throw new AppError(400, MSG.publicNoSecret);
    const secret = newSecret();
    const app = await this.ctx.storage.apps.update(clientId, { secretHash: sha256Hex(secret) }, this.ctx.now());
    if (!app) throw new AppError(404, MSG.unknownApp);
    this.changed(clientId);
    await this.audit('app.rotate_secret', actor, clientId);
    return { client_id: clientId, client_secret: secret };
  }

  /** Start/stop switch: `enabled` sets the state, without it the status toggles. */
  async setEnabled(actor: AppActor, clientId: string, enabled?: boolean): Promise<{ client_id: string; status: AppStatus }> {
    const current = await this.owned(actor, clientId);
    const status = nextStatus(current.status, enabled);
    const app = await this.ctx.storage.apps.update(clientId, { status }, this.ctx.now());
    if (!app) throw new AppError(404, MSG.unknownApp);
    this.changed(clientId);
    await this.audit(status === 'active' ? 'app.enable' : 'app.disable', actor, clientId);
    return { client_id: clientId, status: viewStatus(app.status) };
  }
}
