/**
 * The account rules of docs/api.md §14.3: which user a subject signs in as, the account a new
 * subject gets, and when a link may go. An e-mail address alone never links anything.
 */
import { randomDigits } from '../../platform/crypto/random.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import { fail } from '../../errors/index.js';
import {
  DEFAULT_ROLES,
  isValidDisplayName,
  isValidEmail,
  type User,
} from '../accounts/index.js';
import type { Registration } from '../abuse/index.js';
import { hasPassword } from '../reauth/index.js';
import type { LinkView } from './contract.js';
import type { ProviderDirectory } from './provider-directory.js';
import type { UpstreamProfile } from './protocols/index.js';
import type { ProviderRecord, UpstreamLink } from './repository.js';
import type { UserRepo } from '../accounts/index.js';
import type { PasskeyRepo } from '../second-factor/index.js';
import type { UpstreamLinkRepo } from './repository.js';

const DISPLAY_MAX = 64;
const USERNAME_BASE_MAX = 24;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A valid username from the provider's name: other characters become `_`; too short, `<type>_user`. */
export function usernameBase(raw: string | undefined, type: string): string {
  const base = (raw ?? '')
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, USERNAME_BASE_MAX);
  return base.length >= 3 ? base : `${type}_user`;
}

/** `player`, `player_2` … `player_9`, then a few with random digits: tried in turn until one is free. */
export function usernameCandidates(base: string): string[] {
  const numbered = Array.from({ length: 8 }, (_, i) => `${base}_${i + 2}`);
  const random = Array.from({ length: 5 }, () => `${base}_${randomDigits(6)}`);
  return [base, ...numbered, ...random];
}

/** The profile's display name, made one valid line; the username when there is none. */
export function displayNameOf(
  profile: UpstreamProfile,
  username: string,
): string {
  const cleaned = [
    ...(profile.displayName ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim(),
  ]
    .slice(0, DISPLAY_MAX)
    .join('')
    .trim();
  return isValidDisplayName(cleaned) ? cleaned : username;
}

/** The address a new account may take: only one the provider vouches for. */
export const vouchedEmail = (profile: UpstreamProfile): string | undefined =>
  profile.emailVerified &&
  profile.email !== undefined &&
  isValidEmail(profile.email)
    ? profile.email
    : undefined;

/** What a link shows of the upstream account. */
export const seenOf = (profile: UpstreamProfile) => ({
  displayName: [
    ...(profile.displayName ?? profile.username ?? '').replace(
      /[\u0000-\u001f\u007f]/g,
      '',
    ),
  ]
    .slice(0, DISPLAY_MAX)
    .join(''),
  avatarUrl: profile.avatarUrl ?? '',
});

export interface LinkDeps {
  readonly now: () => number;
  readonly storage: {
    readonly users: UserRepo;
    readonly passkeys: PasskeyRepo;
    readonly upstreamLinks: UpstreamLinkRepo;
  };
}

/** Where an unknown subject goes when nobody is signed in. */
export type NewSubject =
  | { kind: 'created'; user: User }
  | { kind: 'emailTaken'; email: string; holderId: number }
  /** Who may register (docs/api.md §16.2) keeps this account from being made. */
  | {
      kind: 'refused';
      problem: 'registrationClosed' | 'emailRequired' | 'emailDomainRefused';
    };

export class AccountLinks {
  constructor(
    private readonly ctx: LinkDeps,
    private readonly directory: ProviderDirectory,
    /**
     * REGISTRATION: only when it is open may a sign-in through another account create one, and
     * only with an address the domain lists admit (docs/api.md §16.2).
     */
    private readonly registration: Pick<
      Registration,
      'open' | 'refusesUpstreamEmail'
    >,
  ) {}

  find(providerId: string, subject: string): Promise<UpstreamLink | undefined> {
    return this.ctx.storage.upstreamLinks.find(providerId, subject);
  }

  /**
   * A subject nobody is linked to: when a vouched address belongs to an account, the person
   * must prove that account before anything is linked; otherwise a new account with the
   * link, made together in one transaction (never one without the other).
   */
  async signUp(
    provider: ProviderRecord,
    profile: UpstreamProfile,
  ): Promise<NewSubject | { kind: 'linked'; link: UpstreamLink }> {
    const email = vouchedEmail(profile);
    const holder =
      email === undefined
        ? undefined
        : await this.ctx.storage.users.findByEmail(email);
    if (holder && email !== undefined)
      return { kind: 'emailTaken', email, holderId: holder.id };
    if (!this.registration.open)
      return { kind: 'refused', problem: 'registrationClosed' };
    const refused = this.registration.refusesUpstreamEmail(email);
    if (refused) return { kind: 'refused', problem: refused };
    const base = usernameBase(
      profile.username ?? profile.displayName,
      provider.type,
    );
    const now = this.ctx.now();
    for (const username of usernameCandidates(base)) {
      if (await this.ctx.storage.users.findByUsername(username)) continue;
      try {
        const user = await this.ctx.storage.upstreamLinks.createAccount(
          {
            username,
            email: email ?? '',
            displayName: displayNameOf(profile, username),
            passwordHash: '',
            emailVerified: email !== undefined,
            roles: [...DEFAULT_ROLES],
          },
          {
            providerId: provider.id,
            subject: profile.subject,
            ...seenOf(profile),
            linkedAt: now,
            lastUsedAt: now,
          },
          now,
        );
        return { kind: 'created', user };
      } catch (err) {
        if (!(err instanceof UniqueViolation)) throw err;
        // Another request linked the subject first: it signs in as that account.
        if (err.field === 'upstream_subject') {
          const link = await this.find(provider.id, profile.subject);
          if (link) return { kind: 'linked', link };
        }
        const taker =
          err.field === 'email' && email !== undefined
            ? await this.ctx.storage.users.findByEmail(email)
            : undefined;
        if (taker && email !== undefined)
          return { kind: 'emailTaken', email, holderId: taker.id };
        if (err.field !== 'username') throw err;
      }
    }
    throw new Error('no free username for a new upstream account');
  }

  /** Links a subject to a signed-in user; the refusals of docs/api.md §14.3. */
  async link(
    userId: number,
    providerId: string,
    profile: UpstreamProfile,
  ): Promise<void> {
    const now = this.ctx.now();
    try {
      await this.ctx.storage.upstreamLinks.create({
        providerId,
        subject: profile.subject,
        userId,
        ...seenOf(profile),
        linkedAt: now,
        lastUsedAt: now,
      });
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      if (err.field === 'upstream_user') throw fail('upstreamAlreadyLinked');
      const existing = await this.find(providerId, profile.subject);
      if (existing?.userId === userId) return;
      throw fail('upstreamLinkedElsewhere');
    }
  }

  touch(link: UpstreamLink, profile: UpstreamProfile): Promise<void> {
    return this.ctx.storage.upstreamLinks.touch(
      link.providerId,
      link.subject,
      seenOf(profile),
      this.ctx.now(),
    );
  }

  /**
   * Unlinks unless it is the last way in: no password, no passkey, no other link to a provider
   * that is on. Checked before the removal, so a plain refusal changes nothing; and checked
   * again after it, since two unlinks at once each see the other's link still there: one
   * that finds nothing left puts its link back and is refused, so at least one link stays.
   */
  async unlink(user: User, providerId: string): Promise<void> {
    const links = await this.ctx.storage.upstreamLinks.listByUser(user.id);
    const link = links.find((l) => l.providerId === providerId);
    if (!link) throw fail('upstreamNotLinked');
    if (!(await this.anotherWayIn(user, links, providerId)))
      throw fail('lastSignInMethod');
    if (!(await this.ctx.storage.upstreamLinks.remove(user.id, providerId)))
      throw fail('upstreamNotLinked');
    const left = await this.ctx.storage.upstreamLinks.listByUser(user.id);
    if (await this.anotherWayIn(user, left, providerId)) return;
    await this.ctx.storage.upstreamLinks.create(link);
    throw fail('lastSignInMethod');
  }

  /** A password, a passkey, or a link other than to `providerId` whose provider is on. */
  private async anotherWayIn(
    user: User,
    links: UpstreamLink[],
    providerId: string,
  ): Promise<boolean> {
    if (await this.wayInBesidesPasskeys(user, links, providerId)) return true;
    return (await this.ctx.storage.passkeys.listByUser(user.id)).length > 0;
  }

  /** A password, or a link (other than to `exceptProvider`) whose provider is on: what still signs in without passkeys. */
  async wayInBesidesPasskeys(
    user: User,
    links?: UpstreamLink[],
    exceptProvider?: string,
  ): Promise<boolean> {
    if (hasPassword(user)) return true;
    const enabled = new Set((await this.directory.enabled()).map((p) => p.id));
    const current =
      links ?? (await this.ctx.storage.upstreamLinks.listByUser(user.id));
    return current.some(
      (l) => l.providerId !== exceptProvider && enabled.has(l.providerId),
    );
  }

  /** An administrator's removal: no last-way rule, the administrator decides. */
  async remove(userId: number, providerId: string): Promise<void> {
    if (!(await this.ctx.storage.upstreamLinks.remove(userId, providerId)))
      throw fail('upstreamNotLinked');
  }

  async views(userId: number): Promise<LinkView[]> {
    const [links, providers] = await Promise.all([
      this.ctx.storage.upstreamLinks.listByUser(userId),
      this.directory.all(),
    ]);
    const byId = new Map(providers.map((p) => [p.id, p]));
    return links.map((l) => ({
      provider: l.providerId,
      provider_name: byId.get(l.providerId)?.name ?? l.providerId,
      provider_type: byId.get(l.providerId)?.type ?? '',
      display_name: l.displayName,
      avatar_url: l.avatarUrl,
      linked_at: seconds(l.linkedAt),
      last_used_at: l.lastUsedAt === null ? null : seconds(l.lastUsedAt),
    }));
  }
}
