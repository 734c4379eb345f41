/**
 * Who may register (docs/api.md §16.2): REGISTRATION=open|invite|closed and the e-mail
 * domain lists, for /register and for accounts made by signing in with another provider.
 * Accounts that administrators make (CLI, console, import) never pass here: the operator
 * decides those.
 */
import { createHash } from 'node:crypto';
import { badParam, fail } from '../../errors/index.js';
import type { Config } from '../../config/index.js';
import { randomToken } from '../../platform/crypto/random.js';
import type { Invite } from './repository.js';
import type { Repositories } from '../storage.js';
import type { InviteView, NewInviteView } from './contract.js';

export const MAX_INVITE_USES = 10_000;
/** Ten years: longer is "never", which is what leaving the expiry out says. */
export const MAX_INVITE_TTL_S = 10 * 365 * 86_400;

const codeHash = (code: string) =>
  createHash('sha256').update(code).digest('hex');

/** ASCII lower case only, as usernames and e-mails are compared elsewhere. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Whether `domain` is `listed` or one of its subdomains. */
const within = (domain: string, listed: string) =>
  domain === listed || domain.endsWith(`.${listed}`);

export type RegistrationDeps = {
  readonly config: Config;
  readonly now: () => number;
  readonly storage: Pick<Repositories, 'invites' | 'atomically'>;
};

export class Registration {
  constructor(private readonly ctx: RegistrationDeps) {}

  /** REGISTRATION, for the sign-up page to ask for an invite code or say it is closed. */
  get mode(): Config['registration'] {
    return this.ctx.config.registration;
  }

  /** Whether people may make their own accounts without a code: upstream sign-in may create accounts only then. */
  get open(): boolean {
    return this.ctx.config.registration === 'open';
  }

  /**
   * The refusals that need no storage, checked before any other work of a registration:
   * 403 `当前不开放注册` when closed, 400 `邀请码无效或已用完` when an invite is needed and
   * none was given, 400 `该邮箱域名不允许注册` for a domain the lists keep out.
   */
  admit(email: string, inviteCode: string | undefined): void {
    const { registration } = this.ctx.config;
    if (registration === 'closed') throw fail('registrationClosed');
    if (registration === 'invite' && !inviteCode) throw fail('badInvite');
    if (!this.domainAllowed(email)) throw fail('emailDomainRefused');
  }

  /**
   * The domain lists for an account made by signing in with another provider, which has no
   * form to ask for another address: `email` is the address the provider vouches for, if any.
   * With an allow list, an account without an address would slip past it, so none is made.
   */
  refusesUpstreamEmail(
    email: string | undefined,
  ): 'emailRequired' | 'emailDomainRefused' | undefined {
    if (email === undefined)
      return this.ctx.config.registrationEmailDomains.length > 0
        ? 'emailRequired'
        : undefined;
    return this.domainAllowed(email) ? undefined : 'emailDomainRefused';
  }

  /** The allow list (when set) has the address's domain, and the deny list does not. */
  private domainAllowed(email: string): boolean {
    const {
      registrationEmailDomains: allowed,
      registrationBlockedDomains: blocked,
    } = this.ctx.config;
    const domain = asciiLower(email.slice(email.lastIndexOf('@') + 1));
    if (allowed.length > 0 && !allowed.some((d) => within(domain, d)))
      return false;
    return !blocked.some((d) => within(domain, d));
  }

  /**
   * Refuses with `邀请码无效或已用完` when REGISTRATION=invite and the code has no use left,
   * before the checks that come after it (the e-mail code); withInvite() takes the use.
   */
  async requireInvite(inviteCode: string | undefined): Promise<void> {
    if (this.ctx.config.registration !== 'invite') return;
    if (
      !(await this.ctx.storage.invites.usable(
        codeHash(inviteCode ?? ''),
        this.ctx.now(),
      ))
    )
      throw fail('badInvite');
  }

  /**
   * Runs `create` in one transaction with, when REGISTRATION=invite, one use of the invite
   * code: the use is taken first by one conditional UPDATE (so N parallel registrations on an
   * N-use code make N accounts, never more) and is kept only when the writes `create` makes
   * through the repositories it is given commit with it.
   */
  async withInvite<T>(
    inviteCode: string | undefined,
    create: (repos: Repositories) => Promise<T>,
  ): Promise<T> {
    const hash =
      this.ctx.config.registration === 'invite'
        ? codeHash(inviteCode ?? '')
        : undefined;
    return this.ctx.storage.atomically(async (tx) => {
      if (
        hash !== undefined &&
        !(await tx.invites.takeUse(hash, this.ctx.now()))
      )
        throw fail('badInvite');
      return create(tx);
    });
  }
}

function inviteView(i: Invite): InviteView {
  return {
    id: i.id,
    uses: i.uses,
    used: i.used,
    expires_at: i.expiresAt,
    created_by: i.createdBy,
    created_at: i.createdAt,
  };
}

/** Invite codes for administrators: API, console and `account-center invite create`. */
export class Invites {
  constructor(private readonly ctx: RegistrationDeps) {}

  async create(
    input: { uses?: number; expiresInS?: number },
    actor: string,
  ): Promise<NewInviteView> {
    const uses = input.uses ?? 1;
    if (!Number.isSafeInteger(uses) || uses < 1 || uses > MAX_INVITE_USES)
      throw badParam('uses');
    const ttl = input.expiresInS;
    if (
      ttl !== undefined &&
      (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > MAX_INVITE_TTL_S)
    )
      throw badParam('expires_in');
    const now = this.ctx.now();
    // 96 random bits: the code is the secret; the id only names it in lists.
    const code = randomToken(12);
    const invite: Invite = {
      id: randomToken(6),
      uses,
      used: 0,
      expiresAt: ttl === undefined ? null : now + ttl * 1000,
      createdBy: actor,
      createdAt: now,
    };
    await this.ctx.storage.invites.create({
      ...invite,
      codeHash: codeHash(code),
    });
    return { ...inviteView(invite), code };
  }

  async list(): Promise<InviteView[]> {
    return (await this.ctx.storage.invites.list()).map(inviteView);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.ctx.storage.invites.remove(id)))
      throw fail('unknownInvite');
  }
}
