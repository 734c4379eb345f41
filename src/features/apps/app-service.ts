import { badParam, fail, refused } from '../../errors/index.js';
import { nextStatus, viewStatus } from './app-state.js';
import { appView } from './app-view.js';
import { appEvent } from '../moderation/index.js';
import {
  checkAppFields,
  isClientType,
  isMachineOnly,
  isReservedClientId,
  isValidClientId,
  MAX_BACKCHANNEL_APPS_PER_OWNER,
  newClientId,
  toUnixSeconds,
} from './app-rules.js';
import { checkClientFields, DEFAULT_GRANT_TYPES } from './oidc-client-rules.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import {
  BackchannelCapReached,
  type App,
  type AppRepo,
  type BackchannelCap,
} from './repository.js';
import type { User, UserRepo } from '../accounts/index.js';
import type {
  AppSecret,
  AppStatusView,
  AppView,
  CreatedApp,
  CreateAppBody,
  UpdateAppBody,
} from './contract.js';
import type { AppSuspension } from './contract.js';
import { randomToken, sha256Hex } from '../../platform/crypto/random.js';
import type { Config } from '../../config/index.js';
import type { AuditLog } from '../audit/index.js';
import { checkRequiredRoles } from './required-roles.js';
import type { RoleRepo } from '../accounts/index.js';

/** Stored status of an app an administrator disabled: its owner can not switch it back on. */
export const SUSPENDED = 'admin_disabled';

export type CreateAppInput = CreateAppBody;
export type UpdateAppInput = UpdateAppBody;

/** Who acts, for the owner check and the audit row. */
export interface AppActor {
  user: User;
  ip: string | null;
}

/** 256 bits of randomness, base64url (43 characters). */
const newSecret = (): string => randomToken(32);

export interface AppDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly storage: {
    readonly apps: AppRepo;
    readonly users: UserRepo;
    readonly roles: RoleRepo;
  };
  readonly config: Pick<
    Config,
    'centerAppId' | 'gameAppId' | 'webhookAllowPrivate'
  >;
}

/** Application self-management (docs/api.md §4). */
export class AppService {
  constructor(private readonly ctx: AppDeps) {}

  private get reservedIds(): string[] {
    return [this.ctx.config.centerAppId, this.ctx.config.gameAppId];
  }

  private audit(
    action: string,
    actor: AppActor,
    clientId: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    return this.ctx.audit.record(action, {
      actor: actor.user.username,
      ip: actor.ip,
      target: clientId,
      detail,
    });
  }

  /** The app, if the actor owns it or is an admin. */
  private async owned(actor: AppActor, clientId: string): Promise<App> {
    const app = await this.ctx.storage.apps.findById(clientId);
    if (!app) throw fail('unknownApp');
    if (app.ownerId !== actor.user.id && !actor.user.roles.includes('admin'))
      throw fail('notAppOwner');
    return app;
  }

  /** The cap on apps with a back-channel address for the owner: none for an administrator. */
  private async backchannelCap(
    ownerId: number,
    actor: AppActor,
  ): Promise<BackchannelCap | undefined> {
    const owner =
      ownerId === actor.user.id
        ? actor.user
        : await this.ctx.storage.users.findById(ownerId);
    return owner?.roles.includes('admin')
      ? undefined
      : { ownerId, max: MAX_BACKCHANNEL_APPS_PER_OWNER };
  }

  /** The owner's apps an administrator stopped, with the reason given (shown in the console). */
  async suspensions(owner: User): Promise<AppSuspension[]> {
    const apps = await this.ctx.storage.apps.listByOwner(owner.id);
    return apps
      .filter((a) => a.status === SUSPENDED)
      .map((a) => ({
        client_id: a.clientId,
        display_name: a.displayName,
        reason: a.statusReason,
        at: toUnixSeconds(a.statusChangedAt ?? a.updatedAt),
      }));
  }

  async list(owner: User): Promise<AppView[]> {
    return (await this.ctx.storage.apps.listByOwner(owner.id)).map(appView);
  }

  async create(actor: AppActor, input: CreateAppInput): Promise<CreatedApp> {
    const clientType = input.client_type ?? 'confidential';
    if (!isClientType(clientType)) throw badParam('client_type');
    if (input.client_id !== undefined && !isValidClientId(input.client_id))
      throw badParam('client_id');
    const fields = checkAppFields(
      input,
      true,
      isMachineOnly(input.grant_types ?? DEFAULT_GRANT_TYPES),
    );
    if (!fields.ok) throw refused(fields);
    const client = checkClientFields(
      input,
      clientType,
      true,
      this.ctx.config.webhookAllowPrivate,
    );
    if (!client.ok) throw refused(client);
    if (
      input.client_id !== undefined &&
      isReservedClientId(input.client_id, this.reservedIds)
    )
      throw fail('clientIdTaken');
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
      ...client.value,
    };
    const cap = base.backchannelLogoutUri
      ? await this.backchannelCap(actor.user.id, actor)
      : undefined;
    let app: App | undefined;
    // A generated id that collides is simply drawn again; a chosen one is the caller's 409.
    for (let attempt = 0; !app; attempt++) {
      const clientId = input.client_id ?? newClientId();
      try {
        app = await this.ctx.storage.apps.create(
          { ...base, clientId },
          this.ctx.now(),
          cap,
        );
      } catch (err) {
        if (err instanceof BackchannelCapReached)
          throw fail('backchannelAppLimit');
        if (
          !(err instanceof UniqueViolation) ||
          input.client_id !== undefined ||
          attempt >= 3
        ) {
          if (err instanceof UniqueViolation) throw fail('clientIdTaken');
          throw err;
        }
      }
    }
    await this.audit('app.create', actor, app.clientId, {
      client_type: clientType,
    });
    return secret === undefined
      ? appView(app)
      : { ...appView(app), client_secret: secret };
  }

  async update(actor: AppActor, input: UpdateAppInput): Promise<AppView> {
    const current = await this.owned(actor, input.client_id);
    // An app without redirect URIs keeps them optional only while it holds client_credentials alone.
    const machineOnly = isMachineOnly(input.grant_types ?? current.grantTypes);
    const fields = checkAppFields(input, false, machineOnly);
    if (!fields.ok) throw refused(fields);
    if (
      !machineOnly &&
      (fields.value.redirectUris ?? current.redirectUris).length === 0
    )
      throw badParam('redirect_uris');
    const client = checkClientFields(
      input,
      current.clientType,
      false,
      this.ctx.config.webhookAllowPrivate,
    );
    if (!client.ok) throw refused(client);
    const cap = client.value.backchannelLogoutUri
      ? await this.backchannelCap(current.ownerId, actor)
      : undefined;
    const roles = input.required_roles && {
      requiredRoles: await checkRequiredRoles(
        input.required_roles,
        this.ctx.storage.roles,
      ),
    };
    const app = await this.ctx.storage.apps
      .update(
        input.client_id,
        { ...fields.value, ...client.value, ...roles },
        this.ctx.now(),
        [],
        cap,
      )
      .catch((err: unknown) => {
        throw err instanceof BackchannelCapReached
          ? fail('backchannelAppLimit')
          : err;
      });
    if (!app) throw fail('unknownApp');
    await this.audit('app.update', actor, app.clientId, {
      fields: [
        ...Object.keys(fields.value),
        ...Object.keys(client.value),
        ...Object.keys(roles ?? {}),
      ],
    });
    return appView(app);
  }

  /** The old secret stops working with this write: exchange always reads the stored hash. */
  async rotateSecret(actor: AppActor, clientId: string): Promise<AppSecret> {
    const current = await this.owned(actor, clientId);
    if (current.clientType === 'public') throw fail('publicNoSecret');
    const secret = newSecret();
    const app = await this.ctx.storage.apps.update(
      clientId,
      { secretHash: sha256Hex(secret) },
      this.ctx.now(),
    );
    if (!app) throw fail('unknownApp');
    await this.audit('app.rotate_secret', actor, clientId);
    return { client_id: clientId, client_secret: secret };
  }

  /** Start/stop switch: `enabled` sets the state, without it the status toggles. */
  async setEnabled(
    actor: AppActor,
    clientId: string,
    enabled?: boolean,
  ): Promise<AppStatusView> {
    const current = await this.owned(actor, clientId);
    if (current.status === SUSPENDED && !actor.user.roles.includes('admin'))
      throw fail('appSuspended');
    const status = nextStatus(current.status, enabled);
    const event = appEvent(
      status === 'active' ? 'app.enabled' : 'app.disabled',
      clientId,
      { by: 'owner' },
    );
    const app = await this.ctx.storage.apps.update(
      clientId,
      { status },
      this.ctx.now(),
      status === current.status ? [] : [event],
    );
    if (!app) throw fail('unknownApp');
    await this.audit(
      status === 'active' ? 'app.enable' : 'app.disable',
      actor,
      clientId,
    );
    return { client_id: clientId, status: viewStatus(app.status) };
  }
}
