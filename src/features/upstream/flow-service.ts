/**
 * The browser flow of docs/api.md §14.2: `GET /login/{id}` sends the person to the provider
 * with a state bound to this browser; `GET /login/{id}/callback` checks the state, has the
 * protocol verify the provider's answer, and applies the account rules of §14.3. Nothing is
 * created or linked before the provider's answer is verified, and every failure is a page.
 */
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RateLimiter } from '../limits/index.js';
import type { AccountLinks } from './account-links.js';
import type { BrowserBinding } from './browser-binding.js';
import { problemPage, type FlowFailurePage } from './flow-messages.js';
import type { FlowStore } from './flow-store.js';
import {
  method,
  VerifiedAnswers,
  type CallbackResult,
} from './verified-answers.js';
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

export type { CallbackResult, WaitingSubject } from './verified-answers.js';

export type StartResult =
  | { kind: 'redirect'; location: string; setCookie: string }
  | FlowFailurePage;

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

export class UpstreamFlowService {
  constructor(
    private readonly ctx: FlowDeps,
    private readonly directory: ProviderDirectory,
    private readonly store: FlowStore,
    private readonly binding: BrowserBinding,
    links: AccountLinks,
    private readonly protocolFor: (type: ProviderType) => UpstreamProtocol,
    private readonly limiter: RateLimiter,
  ) {
    this.answers = new VerifiedAnswers(ctx, store, links);
  }

  private readonly answers: VerifiedAnswers;

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
      return this.answers.linkFromAccount(provider, state, profile, caller);
    if (intent === 'reauth')
      return this.answers.reauthenticated(provider, state, profile, caller);
    const result = await this.answers.signIn(provider, state, profile, caller);
    // The ticket lives FLOW_TTL_MS from now: so does the cookie it is bound to.
    return result.kind === 'signin' || result.kind === 'email_exists'
      ? { ...result, setCookie: this.binding.renewed(cookieHeader) }
      : result;
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
