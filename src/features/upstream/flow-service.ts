/**
 * The browser flow of docs/api.md §14.2: `GET /login/{id}` sends the person to the provider
 * with a state bound to this browser; `GET /login/{id}/callback` checks the state, has the
 * protocol verify the provider's answer, and applies the account rules of §14.3. Nothing is
 * created or linked before the provider's answer is verified, and every failure is a page.
 */
import { isBanned } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RateLimiter } from '../limits/index.js';
import type { AccountLinks } from './account-links.js';
import type {
  CallbackResult,
  FlowDeps,
  Intent,
  StartResult,
  WaitingSubject,
} from './flow-types.js';
import { failurePage } from './flow-failure.js';
import { AccountIntents } from './flow-intents.js';
import type { BrowserBinding } from './browser-binding.js';
import { problemPage } from './flow-messages.js';
import type { FlowStore } from './flow-store.js';
import { safeReturnPath } from '../../platform/http/return-path.js';
import { callbackUrl } from './provider-admin.js';
import type { ProviderDirectory } from './provider-directory.js';
import {
  singleValued,
  type ActiveProvider,
  type UpstreamProfile,
  type UpstreamProtocol,
} from './protocols/index.js';
import type { ProviderType, UpstreamFlow } from './repository.js';
import type { RoleMapSync } from './role-map-sync.js';

export type {
  CallbackResult,
  FlowDeps,
  Intent,
  StartResult,
  WaitingSubject,
} from './flow-types.js';

const method = (providerId: string) => `upstream:${providerId}`;

export class UpstreamFlowService {
  constructor(
    private readonly ctx: FlowDeps,
    private readonly directory: ProviderDirectory,
    private readonly store: FlowStore,
    private readonly binding: BrowserBinding,
    private readonly links: AccountLinks,
    private readonly protocolFor: (type: ProviderType) => UpstreamProtocol,
    private readonly limiter: RateLimiter,
    private readonly roleMaps: RoleMapSync,
  ) {
    this.intents = new AccountIntents(ctx, links, roleMaps);
  }

  /** A link or a re-authentication asked for on /account. */
  private readonly intents: AccountIntents;

  /**
   * `GET /login/{id}?next=…`, or `?ticket=…` from /account (a link or a re-authentication the
   * signed-in person asked for there, bound to this browser).
   */
  async start(
    providerId: string,
    query: { next?: string; ticket?: string },
    cookieHeader: string | undefined,
  ): Promise<StartResult> {
    const provider = await this.directory.active(providerId);
    if (!provider) return problemPage('unavailable', providerId);
    let intent: Intent = 'signin';
    let asked: UpstreamFlow | undefined;
    if (query.ticket !== undefined) {
      asked =
        (await this.store.find(
          query.ticket,
          'link_start',
          cookieHeader,
          providerId,
        )) ??
        (await this.store.find(
          query.ticket,
          'reauth_start',
          cookieHeader,
          providerId,
        ));
      if (!asked || !(await this.store.consume(asked)))
        return problemPage('state', provider.record.name);
      intent = asked.kind === 'link_start' ? 'link' : 'reauth';
    }
    const { hash, setCookie } = this.binding.ensure(cookieHeader);
    const next = asked?.next ?? safeReturnPath(query.next, this.origin());
    const state = await this.store.issue('state', providerId, hash, {
      userId: asked?.userId ?? null,
      sessionKey: asked?.sessionKey ?? null,
      next,
      payload: { intent },
    });
    try {
      const url = await this.protocolFor(provider.record.type).authorizationUrl(
        provider,
        this.values(providerId, state, intent),
      );
      return { kind: 'redirect', location: url.toString(), setCookie };
    } catch (err) {
      return failurePage(this.ctx, err, provider, null);
    }
  }

  /** `GET /login/{id}/callback`: `url` is the address as received, rebuilt on BASE_URL. */
  async callback(
    providerId: string,
    url: URL,
    cookieHeader: string | undefined,
    caller: Caller,
  ): Promise<CallbackResult> {
    const counted = await this.limiter.take('upstreamIp', caller.ip);
    if (!counted.within)
      return problemPage(
        'rateLimited',
        providerId,
        counted.refusal().retryAfterS,
      );
    const provider = await this.directory.active(providerId);
    if (!provider) return problemPage('unavailable', providerId);
    const name = provider.record.name;
    // A field given twice (state, code, error, openid.*) could be checked in one value and used
    // in another: such an answer is refused before anything is looked up or asked.
    const params = singleValued(url.searchParams);
    if (!params) {
      await this.ctx.audit.record('login.failure', {
        ip: caller.ip,
        detail: { method: method(providerId), reason: 'duplicate' },
      });
      return problemPage('state', name);
    }
    const stateValue = params.get('state');
    const state = await this.store.find(
      stateValue,
      'state',
      cookieHeader,
      providerId,
    );
    // Used up before the provider is asked anything: a replayed or parallel callback gets nowhere.
    if (!state || !(await this.store.consume(state))) {
      await this.ctx.audit.record('login.failure', {
        ip: caller.ip,
        detail: { method: method(providerId), reason: 'state' },
      });
      return problemPage('state', name);
    }
    const intent =
      (JSON.parse(state.payload) as { intent?: Intent }).intent ?? 'signin';
    let profile: UpstreamProfile;
    try {
      profile = await this.protocolFor(provider.record.type).complete(
        provider,
        url,
        this.values(providerId, stateValue as string, intent),
      );
    } catch (err) {
      return failurePage(this.ctx, err, provider, caller);
    }
    if (intent === 'link')
      return this.intents.link(provider, state, profile, caller);
    if (intent === 'reauth')
      return this.intents.reauthenticated(provider, state, profile, caller);
    const result = await this.signIn(provider, state, profile, caller);
    // The ticket lives FLOW_TTL_MS from now: so does the cookie it is bound to.
    return result.kind === 'signin' || result.kind === 'email_exists'
      ? { ...result, setCookie: this.binding.renewed(cookieHeader) }
      : result;
  }

  /** Nobody signed in: a known subject signs in, an unknown one signs up or waits for proof of its address's account. */
  private async signIn(
    provider: ActiveProvider,
    state: UpstreamFlow,
    profile: UpstreamProfile,
    caller: Caller,
  ): Promise<CallbackResult> {
    const { id, name } = provider.record;
    let link = await this.links.find(id, profile.subject);
    if (!link) {
      const outcome = await this.links.signUp(provider.record, profile);
      if (outcome.kind === 'refused') return problemPage(outcome.problem, name);
      if (outcome.kind === 'emailTaken') {
        const waiting: WaitingSubject = {
          subject: profile.subject,
          email: outcome.email,
          displayName: profile.displayName ?? profile.username,
          avatarUrl: profile.avatarUrl,
          memberships: profile.memberships,
        };
        const ticket = await this.store.issue(
          'link_existing',
          id,
          state.browserHash,
          { userId: outcome.holderId, next: state.next, payload: waiting },
        );
        return {
          kind: 'email_exists',
          ticket,
          next: state.next,
          provider: name,
          email: outcome.email,
        };
      }
      if (outcome.kind === 'created') {
        await this.ctx.audit.record('user.register', {
          actor: outcome.user.username,
          ip: caller.ip,
          target: outcome.user.username,
          detail: { method: method(id) },
        });
        await this.ctx.audit.record('identity.linked', {
          actor: outcome.user.username,
          ip: caller.ip,
          target: outcome.user.username,
          detail: { provider: id },
        });
        await this.roleMaps.sync(
          provider.record,
          outcome.user.id,
          profile.memberships,
        );
        return this.signInTicket(provider, state, outcome.user.id);
      }
      link = outcome.link;
    }
    const user = await this.ctx.storage.users.findById(link.userId);
    if (!user || isBanned(user, this.ctx.now())) {
      await this.ctx.audit.record('login.failure', {
        actor: user?.username ?? null,
        ip: caller.ip,
        target: user?.username ?? null,
        detail: { method: method(id), reason: 'banned' },
      });
      return problemPage('banned', name);
    }
    await this.links.touch(link, profile);
    await this.roleMaps.sync(provider.record, user.id, profile.memberships);
    return this.signInTicket(provider, state, user.id);
  }

  /** The page finishes the sign-in with this ticket, asking for the second factor when the account has one. */
  private async signInTicket(
    provider: ActiveProvider,
    state: UpstreamFlow,
    userId: number,
  ): Promise<CallbackResult> {
    const ticket = await this.store.issue(
      'signin',
      provider.record.id,
      state.browserHash,
      { userId, next: state.next },
    );
    return {
      kind: 'signin',
      ticket,
      next: state.next,
      provider: provider.record.name,
    };
  }

  private values(providerId: string, state: string, intent: Intent) {
    const { baseUrl } = this.ctx.config;
    return this.store.values(
      state,
      callbackUrl(baseUrl, providerId),
      `${baseUrl}/`,
      intent === 'reauth',
    );
  }

  private origin(): string {
    return new URL(this.ctx.config.baseUrl).origin;
  }
}
