/**
 * The browser flow of docs/api.md §14.2: `GET /login/{id}` sends the person to the provider
 * with a state bound to this browser; `GET /login/{id}/callback` checks the state, has the
 * protocol verify the provider's answer, and applies the account rules of §14.3. Nothing is
 * created or linked before the provider's answer is verified, and every failure is a page.
 */
import { AppError } from '../../errors/index.js';
import { isBanned } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RateLimiter } from '../limits/index.js';
import { REAUTH_GRANT_MS } from '../reauth/index.js';
import type { AccountLinks } from './account-links.js';
import type { BrowserBinding } from './browser-binding.js';
import { problemPage, type FlowFailurePage } from './flow-messages.js';
import type { FlowStore } from './flow-store.js';
import { safeReturnPath } from '../../platform/http/return-path.js';
import { callbackUrl } from './provider-admin.js';
import type { ProviderDirectory } from './provider-directory.js';
import {
  singleValued,
  UpstreamError,
  type ActiveProvider,
  type UpstreamProfile,
  type UpstreamProtocol,
} from './protocols/index.js';
import type { ProviderType, UpstreamFlow } from './repository.js';
import type { Config } from '../../config/index.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { ReauthGrantRepo } from '../reauth/index.js';
import type { Logger } from 'pino';

/** What a state was made for: a sign-in, a link from /account, or a re-authentication. */
type Intent = 'signin' | 'link' | 'reauth';
/** The upstream account that waits, in a `link_existing` ticket, for proof of the account holding its address. */
export interface WaitingSubject {
  subject: string;
  /** The address the provider vouched for; the ticket's user holds it, and only that user may link. */
  email?: string;
  displayName?: string;
  avatarUrl?: string;
}

export type StartResult =
  | { kind: 'redirect'; location: string; setCookie: string }
  | FlowFailurePage;
export type CallbackResult =
  | FlowFailurePage
  | { kind: 'redirect'; location: string }
  | {
      kind: 'signin';
      ticket: string;
      next: string;
      provider: string;
      setCookie?: string;
    }
  | {
      kind: 'email_exists';
      ticket: string;
      next: string;
      provider: string;
      email: string;
      setCookie?: string;
    };

export interface FlowDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly reauthGrants: ReauthGrantRepo;
  };
  readonly config: Pick<Config, 'baseUrl'>;
}

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
  ) {}

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
      return this.failed(err, provider, null);
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
      return this.failed(err, provider, caller);
    }
    if (intent === 'link')
      return this.linkFromAccount(provider, state, profile, caller);
    if (intent === 'reauth')
      return this.reauthenticated(provider, state, profile, caller);
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

  /** A link asked for on /account, whose owner proved themselves when asking (docs/api.md §14.3). */
  private async linkFromAccount(
    provider: ActiveProvider,
    state: UpstreamFlow,
    profile: UpstreamProfile,
    caller: Caller,
  ): Promise<CallbackResult> {
    const { id, name } = provider.record;
    const user =
      state.userId === null
        ? undefined
        : await this.ctx.storage.users.findById(state.userId);
    if (!user || isBanned(user, this.ctx.now()))
      return problemPage('banned', name);
    try {
      await this.links.link(user.id, id, profile);
    } catch (err) {
      if (err instanceof AppError && err.reason === 'upstreamAlreadyLinked')
        return problemPage('alreadyLinked', name);
      if (err instanceof AppError && err.reason === 'upstreamLinkedElsewhere')
        return problemPage('linkedElsewhere', name);
      throw err;
    }
    await this.ctx.audit.record('identity.linked', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
      detail: { provider: id },
    });
    return { kind: 'redirect', location: withFlag(state.next, 'linked', id) };
  }

  /** An account without a password proves itself by signing in again with a provider linked to it. */
  private async reauthenticated(
    provider: ActiveProvider,
    state: UpstreamFlow,
    profile: UpstreamProfile,
    caller: Caller,
  ): Promise<CallbackResult> {
    const link = await this.links.find(provider.record.id, profile.subject);
    if (
      !link ||
      state.userId === null ||
      link.userId !== state.userId ||
      state.sessionKey === null
    )
      return problemPage('notYourLink', provider.record.name);
    await this.links.touch(link, profile);
    const now = this.ctx.now();
    await this.ctx.storage.reauthGrants.put(
      link.userId,
      state.sessionKey,
      'upstream',
      now + REAUTH_GRANT_MS,
      now,
    );
    await this.ctx.audit.record('reauth.upstream', {
      ip: caller.ip,
      target: `uid:${link.userId}`,
      detail: { provider: provider.record.id },
    });
    return {
      kind: 'redirect',
      location: withFlag(state.next, 'reauthenticated', provider.record.id),
    };
  }

  /** A protocol failure as its page; only an unexpected fault is logged as one. */
  private async failed(
    err: unknown,
    provider: ActiveProvider,
    caller: Caller | null,
  ): Promise<FlowFailurePage> {
    const kind = err instanceof UpstreamError ? err.kind : 'provider';
    if (err instanceof UpstreamError)
      this.ctx.log.info(
        { provider: provider.record.id, kind, reason: err.message },
        'upstream sign-in refused',
      );
    else
      this.ctx.log.error(
        { err, provider: provider.record.id },
        'upstream sign-in failed',
      );
    // What the provider said goes into the audit trail, where an administrator looks for why.
    const error =
      err instanceof UpstreamError
        ? err.message.slice(0, 300)
        : 'unexpected failure';
    if (caller)
      await this.ctx.audit.record('login.failure', {
        ip: caller.ip,
        detail: { method: method(provider.record.id), reason: kind, error },
      });
    return problemPage(kind, provider.record.name);
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

/** `next` with a query flag the account page shows a notice for. */
function withFlag(next: string, key: string, value: string): string {
  return `${next}${next.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
}
