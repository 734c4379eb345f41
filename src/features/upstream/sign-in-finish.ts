/**
 * The steps after the provider's answer, taken by the page the callback showed: finishing a
 * sign-in (with the second factor when the account has one, docs/api.md §14.3: the provider
 * replaces the password, not the second factor), and linking a subject whose address belongs
 * to an account to that account, once the person signed in to it and proves it again.
 */
import { bannedAtSignIn, fail } from '../../errors/index.js';
import { isBanned } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { ReauthProof, ReauthService } from '../reauth/index.js';
import type { SecondFactorService } from '../second-factor/index.js';
import {
  signInMethod,
  type Authenticated,
  type TokenEnvelope,
} from '../sessions/index.js';
import type { AccountLinks } from './account-links.js';
import type { LinkedData } from './contract.js';
import type { WaitingSubject } from './flow-service.js';
import type { FlowStore } from './flow-store.js';
import type { ProviderDirectory } from './provider-directory.js';
import type { Config } from '../../config/index.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { SignIns, TokenService } from '../sessions/index.js';
import type { RoleMapSync } from './role-map-sync.js';

export interface FinishDeps {
  readonly now: () => number;
  readonly tokens: TokenService;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
  };
  readonly config: Pick<Config, 'centerAppId'>;
}

/** ASCII lower case only, as e-mail addresses are compared everywhere else. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

export class UpstreamSignInFinish {
  constructor(
    private readonly ctx: FinishDeps,
    private readonly store: FlowStore,
    private readonly links: AccountLinks,
    private readonly directory: ProviderDirectory,
    private readonly secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
    private readonly reauth: Pick<ReauthService, 'prove'>,
    private readonly roleMaps: RoleMapSync,
  ) {}

  /**
   * A first-party token for the ticket's user, as after a password sign-in. A wrong or missing
   * second-factor code leaves the ticket usable (its tries are counted by the code's own
   * limits); the token is issued once, to the one request that uses the ticket up.
   */
  async finish(
    ticket: string,
    otp: string | undefined,
    cookieHeader: string | undefined,
    caller: Caller,
  ): Promise<TokenEnvelope> {
    const flow = await this.store.find(ticket, 'signin', cookieHeader);
    if (!flow || flow.userId === null) throw fail('upstreamTicketInvalid');
    // A provider disabled meanwhile refuses here too.
    if (!(await this.directory.active(flow.providerId)))
      throw fail('upstreamTicketInvalid');
    const user = await this.ctx.storage.users.findById(flow.userId);
    if (!user) throw fail('upstreamTicketInvalid');
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    const method = `upstream:${flow.providerId}`;
    const secondFactor = await this.secondFactor.checkSignIn(
      user,
      otp,
      caller,
      method,
    );
    if (!(await this.store.consume(flow))) throw fail('upstreamTicketInvalid');
    const issued = await this.ctx.tokens.envelope(
      user,
      this.ctx.config.centerAppId,
    );
    await this.ctx.signIns.record(
      issued.claims,
      user,
      caller,
      signInMethod(method, secondFactor),
    );
    await this.ctx.audit.signedIn(user, caller, method);
    return issued.body;
  }

  /**
   * Links the waiting subject to the account holding the address the provider vouched for,
   * and to no other: the bearer token must be that account's, and the request carries its
   * proof of docs/api.md §10.1 (the password, or a mailed code without one, and the second
   * factor when on). A token alone, stolen and refreshed or not, links nothing.
   */
  async linkExisting(
    ticket: string,
    auth: Authenticated,
    proof: ReauthProof,
    cookieHeader: string | undefined,
    caller: Caller,
  ): Promise<LinkedData> {
    const flow = await this.store.find(ticket, 'link_existing', cookieHeader);
    if (!flow) throw fail('upstreamTicketInvalid');
    const provider = await this.directory.active(flow.providerId);
    if (!provider) throw fail('upstreamTicketInvalid');
    const waiting = JSON.parse(flow.payload) as WaitingSubject;
    const holds =
      flow.userId === auth.user.id &&
      waiting.email !== undefined &&
      asciiLower(auth.user.email) === asciiLower(waiting.email);
    if (!holds) throw fail('upstreamNotEmailHolder');
    await this.reauth.prove(auth, proof, caller, { inThisRequest: true });
    if (!(await this.store.consume(flow))) throw fail('upstreamTicketInvalid');
    await this.links.link(auth.user.id, flow.providerId, {
      subject: waiting.subject,
      displayName: waiting.displayName,
      avatarUrl: waiting.avatarUrl,
      emailVerified: false,
    });
    await this.roleMaps.sync(
      provider.record,
      auth.user.id,
      waiting.memberships,
    );
    await this.ctx.audit.record('identity.linked', {
      actor: auth.user.username,
      ip: caller.ip,
      target: auth.user.username,
      detail: { provider: flow.providerId },
    });
    return { provider: flow.providerId, provider_name: provider.record.name };
  }
}
