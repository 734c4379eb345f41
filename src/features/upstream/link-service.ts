/**
 * Linked accounts on /account and for administrators (docs/api.md §14.3, §14.4): the list,
 * linking another provider (after re-authentication, docs/api.md §10), unlinking (never the
 * last way in), and an account without a password proving itself through a linked provider.
 */
import { fail } from '../../errors/index.js';
import type { User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import {
  hasPassword,
  sessionKeyOf,
  type ReauthProof,
  type ReauthService,
} from '../reauth/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { AccountLinks } from './account-links.js';
import type { BrowserBinding } from './browser-binding.js';
import type { AccountLinksData, LinkView } from './contract.js';
import type { FlowStore } from './flow-store.js';
import { safeReturnPath } from '../../platform/http/return-path.js';
import type { ProviderDirectory } from './provider-directory.js';
import type { Config } from '../../config/index.js';
import type { AuditLog } from '../audit/index.js';

export interface LinkServiceDeps {
  readonly audit: AuditLog;
  readonly config: Pick<Config, 'baseUrl'>;
}

/** The address the page sends the browser to, and the binding cookie the answer sets for it. */
export interface FlowStart {
  url: string;
  setCookie: string;
}

export class UpstreamLinkService {
  constructor(
    private readonly ctx: LinkServiceDeps,
    private readonly links: AccountLinks,
    private readonly directory: ProviderDirectory,
    private readonly store: FlowStore,
    private readonly binding: BrowserBinding,
    private readonly reauth: Pick<ReauthService, 'prove'>,
  ) {}

  /** The enabled providers, for the sign-in pages' buttons. */
  async buttons(): Promise<Array<{ id: string; name: string; type: string }>> {
    return (await this.directory.enabled()).map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
    }));
  }

  async ofAccount(user: User): Promise<AccountLinksData> {
    return {
      links: await this.links.views(user.id),
      providers: await this.buttons(),
      has_password: hasPassword(user),
    };
  }

  /** Proves the owner first, then hands out a single-use ticket for `/login/{id}`, bound to this browser. */
  async beginLink(
    auth: Authenticated,
    providerId: string,
    proof: ReauthProof,
    next: string | undefined,
    cookieHeader: string | undefined,
    caller: Caller,
  ): Promise<FlowStart> {
    const provider = await this.directory.active(providerId);
    if (!provider) throw fail('unknownProvider');
    await this.reauth.prove(auth, proof, caller);
    if (
      (await this.links.views(auth.user.id)).some(
        (l) => l.provider === providerId,
      )
    )
      throw fail('upstreamAlreadyLinked');
    return this.ticket('link_start', auth, providerId, next, cookieHeader);
  }

  /** For an account without a password: a fresh sign-in with a provider already linked to it. */
  async beginReauth(
    auth: Authenticated,
    providerId: string,
    next: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<FlowStart> {
    if (!(await this.directory.active(providerId)))
      throw fail('unknownProvider');
    if (
      !(await this.links.views(auth.user.id)).some(
        (l) => l.provider === providerId,
      )
    )
      throw fail('upstreamNotLinked');
    return this.ticket('reauth_start', auth, providerId, next, cookieHeader);
  }

  async unlink(
    auth: Authenticated,
    providerId: string,
    proof: ReauthProof,
    caller: Caller,
  ): Promise<void> {
    await this.reauth.prove(auth, proof, caller);
    await this.links.unlink(auth.user, providerId);
    await this.ctx.audit.record('identity.unlinked', {
      actor: auth.user.username,
      ip: caller.ip,
      target: auth.user.username,
      detail: { provider: providerId },
    });
  }

  /** Whether the account still signs in once its passkeys are gone (docs/api.md §14.3). */
  signsInWithoutPasskeys(user: User): Promise<boolean> {
    return this.links.wayInBesidesPasskeys(user);
  }

  /** An administrator's view of a user's links. */
  linksOf(user: User): Promise<LinkView[]> {
    return this.links.views(user.id);
  }

  async adminRemove(
    user: User,
    providerId: string,
    actor: string,
    caller: Caller | null,
  ): Promise<void> {
    await this.links.remove(user.id, providerId);
    await this.ctx.audit.record('identity.unlinked', {
      actor,
      ip: caller?.ip ?? null,
      target: user.username,
      detail: { provider: providerId, by_admin: true },
    });
  }

  private async ticket(
    kind: 'link_start' | 'reauth_start',
    auth: Authenticated,
    providerId: string,
    next: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<FlowStart> {
    const { hash, setCookie } = this.binding.ensure(cookieHeader);
    const back = safeReturnPath(next, new URL(this.ctx.config.baseUrl).origin);
    const ticket = await this.store.issue(kind, providerId, hash, {
      userId: auth.user.id,
      sessionKey: sessionKeyOf(auth),
      next: back,
    });
    return { url: `/login/${providerId}?ticket=${ticket}`, setCookie };
  }
}
