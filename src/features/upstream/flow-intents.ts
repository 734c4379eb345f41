/**
 * What a signed-in person asked for on /account and finished at the provider (docs/api.md
 * §14.3): a link, or a re-authentication with a provider already linked. Either applies the
 * provider's role map (role-map-sync.ts) like a sign-in does.
 */
import { AppError } from '../../errors/index.js';
import { isBanned } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import { REAUTH_GRANT_MS } from '../reauth/index.js';
import type { AccountLinks } from './account-links.js';
import { problemPage } from './flow-messages.js';
import type { CallbackResult, FlowDeps } from './flow-types.js';
import type { ActiveProvider, UpstreamProfile } from './protocols/index.js';
import type { UpstreamFlow } from './repository.js';
import type { RoleMapSync } from './role-map-sync.js';

export class AccountIntents {
  constructor(
    private readonly ctx: FlowDeps,
    private readonly links: AccountLinks,
    private readonly roleMaps: RoleMapSync,
  ) {}

  /** A link asked for on /account, whose owner proved themselves when asking (docs/api.md §14.3). */
  async link(
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
    await this.roleMaps.sync(provider.record, user.id, profile.memberships);
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
    await this.roleMaps.sync(provider.record, link.userId, profile.memberships);
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
