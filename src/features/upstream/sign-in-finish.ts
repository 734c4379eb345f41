/**
 * The steps after the provider's answer, taken by the page the callback showed: finishing a
 * sign-in (with the second factor when the account has one, docs/api.md §14.3: the provider
 * replaces the password, not the second factor), and linking a subject whose address belongs
 * to an account once the person signed in to that account.
 */
import { bannedAtSignIn, fail } from '../../errors/index.js';
import { isBanned } from '../accounts/index.js';
import type { Caller, Uses } from '../kit.js';
import type { SecondFactorService } from '../second-factor/index.js';
import { signInMethod, type Authenticated, type TokenEnvelope } from '../sessions/index.js';
import type { AccountLinks } from './account-links.js';
import type { LinkedData } from './contract.js';
import type { WaitingSubject } from './flow-service.js';
import type { FlowStore } from './flow-store.js';
import type { ProviderDirectory } from './provider-directory.js';

export type FinishDeps = Uses<'now' | 'tokens' | 'audit' | 'signIns', 'users', 'centerAppId'>;

/** When the person signed in, in ms: the issue time every first-party token carries in its jti. */
function signedInAt(auth: Authenticated): number {
  const dot = auth.claims.jti.indexOf('.');
  const ms = dot > 0 ? parseInt(auth.claims.jti.slice(0, dot), 36) : NaN;
  return Number.isFinite(ms) ? ms : auth.claims.iat * 1000;
}

export class UpstreamSignInFinish {
  constructor(
    private readonly ctx: FinishDeps,
    private readonly store: FlowStore,
    private readonly links: AccountLinks,
    private readonly directory: ProviderDirectory,
    private readonly secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
  ) {}

  /**
   * A first-party token for the ticket's user, as after a password sign-in. A wrong or missing
   * second-factor code leaves the ticket usable (its tries are counted by the code's own
   * limits); the token is issued once, to the one request that uses the ticket up.
   */
  async finish(ticket: string, otp: string | undefined, cookieHeader: string | undefined, caller: Caller): Promise<TokenEnvelope> {
    const flow = await this.store.find(ticket, 'signin', cookieHeader);
    if (!flow || flow.userId === null) throw fail('upstreamTicketInvalid');
    // A provider disabled meanwhile refuses here too.
    if (!(await this.directory.active(flow.providerId))) throw fail('upstreamTicketInvalid');
    const user = await this.ctx.storage.users.findById(flow.userId);
    if (!user) throw fail('upstreamTicketInvalid');
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    const method = `upstream:${flow.providerId}`;
    const secondFactor = await this.secondFactor.checkSignIn(user, otp, caller, method);
    if (!(await this.store.consume(flow))) throw fail('upstreamTicketInvalid');
    const issued = await this.ctx.tokens.envelope(user, this.ctx.config.centerAppId);
    await this.ctx.signIns.record(issued.claims, user, caller, signInMethod(method, secondFactor));
    await this.ctx.audit.signedIn(user, caller, method);
    return issued.body;
  }

  /**
   * Links the waiting subject to the account the person has just signed in to (password or
   * e-mail code, and the second factor): only a sign-in made after the provider's answer, in
   * the same browser, counts as the proof.
   */
  async linkExisting(ticket: string, auth: Authenticated, cookieHeader: string | undefined, caller: Caller): Promise<LinkedData> {
    const flow = await this.store.find(ticket, 'link_existing', cookieHeader);
    if (!flow) throw fail('upstreamTicketInvalid');
    const provider = await this.directory.active(flow.providerId);
    if (!provider) throw fail('upstreamTicketInvalid');
    if (signedInAt(auth) < flow.createdAt) throw fail('reauthRequired');
    const waiting = JSON.parse(flow.payload) as WaitingSubject;
    if (!(await this.store.consume(flow))) throw fail('upstreamTicketInvalid');
    await this.links.link(auth.user.id, flow.providerId, { subject: waiting.subject, displayName: waiting.displayName, avatarUrl: waiting.avatarUrl, emailVerified: false });
    await this.ctx.audit.record('identity.linked', { actor: auth.user.username, ip: caller.ip, target: auth.user.username, detail: { provider: flow.providerId } });
    return { provider: flow.providerId, provider_name: provider.record.name };
  }
}
