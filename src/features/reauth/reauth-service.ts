import { AppError, fail } from '../../errors/index.js';
import { safeEqual } from '../../platform/crypto/random.js';
import type { ReauthPurpose } from './repository.js';
import { emailCodeHasher, type User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RateLimiter } from '../limits/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { Config } from '../../config/index.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { EmailCodeRepo } from '../accounts/index.js';
import type { ReauthGrantRepo } from './repository.js';

/** How long the first step of a two-step change lets the second follow without asking again. */
export const REAUTH_GRANT_MS = 10 * 60 * 1000;

/** Tries at one mailed code, as for every e-mail code (docs/api.md §2.3). */
const EMAIL_CODE_MAX_TRIES = 5;

/** What the request that starts a sensitive change carries to show it is the owner. */
export interface ReauthProof {
  currentPassword?: string | undefined;
  /** An authenticator or recovery code, needed when the authenticator is on. */
  otp?: string | undefined;
  /** For an account without a password: the `reauth` code mailed to its address. */
  emailCode?: string | undefined;
}

export interface ProveOptions {
  /**
   * Only a proof carried by this request counts (password, or a mailed code for an account
   * without one): not a recent sign-in with a linked provider, which says nothing about
   * who holds the account's address.
   */
  inThisRequest?: boolean;
}

export interface ReauthDeps {
  readonly now: () => number;
  readonly passwords: Passwords;
  readonly storage: {
    readonly reauthGrants: ReauthGrantRepo;
    readonly emailCodes: EmailCodeRepo;
  };
  readonly config: Pick<Config, 'jwtSecret'>;
}

/**
 * The second factor as a proof needs it. The second-factor feature provides it (the
 * composition root hands it in); it sits above this one, since adding or removing a factor
 * asks for a proof.
 */
export interface SecondFactorCheck {
  /** Whether the user turned the authenticator on. */
  required(userId: number): Promise<boolean>;
  /** Refuses a wrong code (counted first), else returns. */
  checkAccountCode(user: User, code: string, caller: Caller): Promise<void>;
}

/**
 * The one rule for changes to how an account is signed in to (docs/api.md §10): a bearer token
 * alone is never enough. The request proves the owner (current password, plus a code when
 * the authenticator is on); a two-step change leaves a grant that only the same user's same
 * session can use, for ten minutes. Grants are rows, so every instance sees them.
 */
export class ReauthService {
  constructor(
    private readonly ctx: ReauthDeps,
    private readonly limiter: RateLimiter,
    private readonly secondFactor: SecondFactorCheck,
  ) {
    this.codeHash = emailCodeHasher(ctx.config.jwtSecret);
  }

  /** The keyed hash every e-mail code is kept as. */
  private readonly codeHash: (code: string) => string;

  /**
   * Checks the proof. Anything short of the owner's proof is 401 `需要重新验证身份`
   * (docs/api.md §10): missing parts before anything is compared, a wrong password or code
   * after its try was counted, so guesses stay under the same limits as elsewhere.
   */
  async prove(
    auth: Authenticated,
    proof: ReauthProof,
    caller: Caller,
    opts: ProveOptions = {},
  ): Promise<void> {
    const { user } = auth;
    const otpNeeded = await this.secondFactor.required(user.id);
    if (otpNeeded && proof.otp === undefined) throw fail('reauthRequired');
    if (hasPassword(user)) {
      if (proof.currentPassword === undefined) throw fail('reauthRequired');
      await this.checkPassword(user, proof.currentPassword);
    } else if (proof.emailCode !== undefined && user.email !== '') {
      await this.checkEmailCode(user, proof.emailCode);
    } else if (
      opts.inThisRequest ||
      !(await this.ctx.storage.reauthGrants.live(
        user.id,
        sessionKeyOf(auth),
        'upstream',
        this.ctx.now(),
      ))
    ) {
      // An account without a password proves itself by signing in again, in this session and
      // within minutes, with a provider linked to it (docs/api.md §14.4); the second factor
      // is still asked for, as at every sign-in.
      throw fail('reauthRequired');
    }
    if (otpNeeded)
      await this.secondFactor
        .checkAccountCode(user, proof.otp ?? '', caller)
        .catch(asReauthRequired);
  }

  /** Proves, then leaves the grant the second step of `purpose` needs. */
  async proveFor(
    auth: Authenticated,
    purpose: ReauthPurpose,
    proof: ReauthProof,
    caller: Caller,
  ): Promise<void> {
    await this.prove(auth, proof, caller);
    await this.grant(auth, purpose);
  }

  async grant(auth: Authenticated, purpose: ReauthPurpose): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.storage.reauthGrants.put(
      auth.user.id,
      sessionKeyOf(auth),
      purpose,
      now + REAUTH_GRANT_MS,
      now,
    );
  }

  /** The second step: 401 unless this session's grant for `purpose` is live. */
  async require(auth: Authenticated, purpose: ReauthPurpose): Promise<void> {
    if (
      !(await this.ctx.storage.reauthGrants.live(
        auth.user.id,
        sessionKeyOf(auth),
        purpose,
        this.ctx.now(),
      ))
    )
      throw fail('reauthRequired');
  }

  /** Once the change is made, its grant is used up. */
  async clear(auth: Authenticated, purpose: ReauthPurpose): Promise<void> {
    await this.ctx.storage.reauthGrants.remove(
      auth.user.id,
      sessionKeyOf(auth),
      purpose,
    );
  }

  /**
   * The `reauth` code mailed to the address (docs/api.md §10): the try counted on the code
   * before it is compared (at most EMAIL_CODE_MAX_TRIES), then used up by a conditional UPDATE.
   * Codes are kept as the same keyed hash as every e-mail code.
   */
  private async checkEmailCode(user: User, code: string): Promise<void> {
    const now = this.ctx.now();
    const counted = await this.ctx.storage.emailCodes.takeTry(
      user.email,
      'reauth',
      now,
      EMAIL_CODE_MAX_TRIES,
    );
    if (!counted || !safeEqual(this.codeHash(code), counted.codeHash))
      throw fail('reauthRequired');
    if (!(await this.ctx.storage.emailCodes.markUsed(counted.id, now)))
      throw fail('reauthRequired');
  }

  /** The current password under the per-user rule: counted before the hash is compared, given back when right. */
  private async checkPassword(user: User, password: string): Promise<void> {
    const subject = `uid:${user.id}`;
    await this.limiter.takeOrRefuse('accountPassword', subject);
    if (!(await this.ctx.passwords.verify(user.passwordHash, password)))
      throw fail('reauthRequired');
    await this.limiter.giveBack('accountPassword', subject);
  }
}

/** A wrong second-factor code in a proof is a failed proof like a wrong password. */
const asReauthRequired = (err: unknown): never => {
  throw err instanceof AppError && err.reason === 'wrongOtpCode'
    ? fail('reauthRequired')
    : err;
};

/** The session a token belongs to; a token from before sessions stands for itself. */
export const sessionKeyOf = ({
  claims,
}: Pick<Authenticated, 'claims'>): string =>
  claims.sid !== undefined ? `sid:${claims.sid}` : `jti:${claims.jti}`;

/** A deleted account's hash is '!'; an account made by an upstream sign-in has none (''). */
export const hasPassword = (user: Pick<User, 'passwordHash'>): boolean =>
  user.passwordHash !== '' && !user.passwordHash.startsWith('!');
