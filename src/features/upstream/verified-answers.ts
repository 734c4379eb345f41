/**
 * What a provider's verified answer leads to (docs/api.md §14.3): a sign-in or sign-up, a link
 * asked for on /account, or a re-authentication.
 */
import { AppError } from '../../errors/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import { isBanned, type UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import { REAUTH_GRANT_MS, type ReauthGrantRepo } from '../reauth/index.js';
import type { AccountLinks } from './account-links.js';
import { problemPage, type FlowFailurePage } from './flow-messages.js';
import type { FlowStore } from './flow-store.js';
import type { ActiveProvider, UpstreamProfile } from './protocols/index.js';
import type { UpstreamFlow } from './repository.js';

/** The sign-in method a provider's answers are audited under. */
export const method = (providerId: string) => `upstream:${providerId}`;

/** The upstream account that waits, in a `link_existing` ticket, for proof of the account holding its address. */
export interface WaitingSubject {
  subject: string;
  /** The address the provider vouched for; the ticket's user holds it, and only that user may link. */
  email?: string;
  displayName?: string;
  avatarUrl?: string;
}

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

/** What the answers read and write besides the flow's state and the links. */
export interface AnswerDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly reauthGrants: ReauthGrantRepo;
  };
}

export class VerifiedAnswers {
  constructor(
    private readonly ctx: AnswerDeps,
    private readonly store: FlowStore,
    private readonly links: AccountLinks,
  ) {}

  /** Nobody signed in: a known subject signs in, an unknown one signs up or waits for proof of its address's account. */
  async signIn(
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
  async linkFromAccount(
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
  async reauthenticated(
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
}

/** `next` with a query flag the account page shows a notice for. */
function withFlag(next: string, key: string, value: string): string {
  return `${next}${next.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
}
