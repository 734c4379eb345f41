import { fail } from '../../errors/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { AuditLog } from '../audit/index.js';
import type { ProviderView } from './contract.js';
import type { ProviderDirectory } from './provider-directory.js';
import type { LastErrors } from './provider-errors.js';
import {
  applyProviderInput,
  isProviderType,
  isValidProviderId,
  ProviderOptionError,
  scopesOf,
  type ProviderInput,
} from './provider-rules.js';
import type { ProviderRecord, UpstreamProviderRepo } from './repository.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Where the provider sends the browser back: what the administrator registers there. */
export const callbackUrl = (baseUrl: string, id: string) =>
  `${baseUrl}/login/${id}/callback`;

export function providerView(
  p: ProviderRecord,
  baseUrl: string,
  lastError: ProviderView['last_error'] = null,
): ProviderView {
  const s = p.settings;
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    client_id: p.clientId,
    has_client_secret: p.clientSecretEnc !== null,
    has_api_key: p.apiKeyEnc !== null,
    issuer: p.issuer,
    scopes: scopesOf(p).join(' '),
    trust_email: s.trustEmail === true,
    require_guild: s.requireGuild ?? null,
    authorization_endpoint: s.authorizationEndpoint ?? null,
    token_endpoint: s.tokenEndpoint ?? null,
    userinfo_endpoint: s.userinfoEndpoint ?? null,
    openid_endpoint: s.openidEndpoint ?? null,
    api_base: s.apiBase ?? null,
    subject_field: s.subjectField ?? null,
    username_field: s.usernameField ?? null,
    email_field: s.emailField ?? null,
    token_endpoint_auth_method: s.tokenEndpointAuthMethod ?? null,
    role_map: s.roleMap ?? {},
    guild_id: s.roleGuild ?? null,
    role_claim: s.roleClaim ?? null,
    last_error: lastError,
    enabled: p.enabled,
    callback_url: callbackUrl(baseUrl, p.id),
    created_at: seconds(p.createdAt),
    updated_at: seconds(p.updatedAt),
  };
}

/** Who made a change, for the audit trail: an admin's username, or `cli`. */
export interface Actor {
  name: string;
  ip?: string | null;
}

/**
 * Adding, changing, switching and removing providers (docs/api.md §14.1): the same rules for
 * the CLI, the admin API and the console. Secrets are sealed before they are stored and never
 * returned; the audit trail names the provider and the fields changed, never a value.
 */
export class ProviderAdmin {
  constructor(
    private readonly repo: UpstreamProviderRepo,
    private readonly directory: ProviderDirectory,
    private readonly audit: AuditLog,
    /** BASE_URL: the callback addresses are built on it. */
    readonly baseUrl: string,
    private readonly now: () => number,
    private readonly lastErrors: LastErrors,
  ) {}

  async list(): Promise<ProviderView[]> {
    return Promise.all((await this.repo.list()).map((p) => this.view(p)));
  }

  async add(
    id: string,
    type: string,
    input: ProviderInput & { enabled?: boolean },
    actor: Actor,
  ): Promise<ProviderView> {
    if (!isValidProviderId(id))
      throw new ProviderOptionError('id', 'must be 2–32 of a-z 0-9 -');
    if (!isProviderType(type))
      throw new ProviderOptionError(
        'type',
        'must be one of oidc, oauth2, github, discord, steam, qq, wechat, google, microsoft',
      );
    const applied = applyProviderInput({ type }, input, true);
    const now = this.now();
    const record: ProviderRecord = {
      id,
      type,
      name: applied.name,
      clientId: applied.clientId,
      issuer: applied.issuer,
      scopes: applied.scopes,
      settings: applied.settings,
      clientSecretEnc: this.sealed(applied.secrets.clientSecret) ?? null,
      apiKeyEnc: applied.secrets.apiKey
        ? (this.sealed(applied.secrets.apiKey) ?? null)
        : null,
      enabled: input.enabled !== false,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.repo.create(record);
    } catch (err) {
      if (err instanceof UniqueViolation) throw fail('providerIdTaken');
      throw err;
    }
    this.directory.changed();
    await this.audit.record('provider.add', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: id,
      detail: { type },
    });
    return this.view(record);
  }

  async update(
    id: string,
    input: ProviderInput,
    actor: Actor,
  ): Promise<ProviderView> {
    const current = await this.find(id);
    const applied = applyProviderInput(current, input, false);
    const clientSecretEnc = this.sealed(applied.secrets.clientSecret);
    const apiKeyEnc =
      applied.secrets.apiKey === ''
        ? null
        : this.sealed(applied.secrets.apiKey);
    const updated = await this.repo.update(
      id,
      {
        name: applied.name,
        clientId: applied.clientId,
        issuer: applied.issuer,
        scopes: applied.scopes,
        settings: applied.settings,
        ...(clientSecretEnc !== undefined && { clientSecretEnc }),
        ...(apiKeyEnc !== undefined && { apiKeyEnc }),
      },
      this.now(),
    );
    if (!updated) throw fail('unknownProvider');
    this.directory.changed();
    const fields = Object.keys(input).filter(
      (k) => (input as Record<string, unknown>)[k] !== undefined,
    );
    await this.audit.record('provider.update', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: id,
      detail: { fields },
    });
    return this.view(updated);
  }

  /** Disabled: the buttons go at once here and within seconds elsewhere; callbacks refuse; links stay. */
  async setEnabled(
    id: string,
    enabled: boolean,
    actor: Actor,
  ): Promise<ProviderView> {
    const updated = await this.repo.update(id, { enabled }, this.now());
    if (!updated) throw fail('unknownProvider');
    this.directory.changed();
    await this.audit.record(enabled ? 'provider.enable' : 'provider.disable', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: id,
    });
    return this.view(updated);
  }

  /** Removed: as disabled, and its settings are gone; links stay and work again if it is added back under the same id. */
  async remove(id: string, actor: Actor): Promise<void> {
    if (!(await this.repo.remove(id))) throw fail('unknownProvider');
    this.directory.changed();
    await this.audit.record('provider.remove', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: id,
    });
  }

  private async find(id: string): Promise<ProviderRecord> {
    const p = await this.repo.find(id);
    if (!p) throw fail('unknownProvider');
    return p;
  }

  private sealed(secret: string | undefined): string | undefined {
    return secret === undefined ? undefined : this.directory.seal(secret);
  }

  private async view(p: ProviderRecord): Promise<ProviderView> {
    return providerView(p, this.baseUrl, await this.lastErrors.of(p.id));
  }
}
