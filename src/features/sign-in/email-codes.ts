import { badParam, fail, rateLimited } from '../../errors/index.js';
import {
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_TTL_S,
  EMAIL_RESEND_AFTER_S,
  asciiLower,
  emailCodeHasher,
  isEmailPurpose,
  isValidEmail,
} from '../accounts/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { EmailCodeRepo, EmailPurpose, User } from '../accounts/index.js';
import type { Caller, Uses } from '../kit.js';
import {
  randomDigits,
  randomToken,
  safeEqual,
} from '../../platform/crypto/random.js';
import type { Language } from '../../platform/i18n/language.js';
import type { RateLimiter } from '../limits/index.js';
import type {
  RegisterBody,
  SendCodeData,
  VerifyEmailData,
} from './contract.js';
import type { SecondFactorService } from '../second-factor/index.js';
import { emailCodeMessage } from './account-notices.js';
import { hasPassword, type ReauthService } from '../reauth/index.js';
import type { SessionService } from '../sessions/index.js';
import type { AbuseServices } from '../abuse/index.js';

export type RegisterInput = RegisterBody;

/** A unique-key clash as the field-rule answer it stands for. */
export function taken(err: unknown): never {
  if (err instanceof UniqueViolation)
    throw fail(err.field === 'email' ? 'emailTaken' : 'usernameTaken');
  throw err;
}

export type AccountDeps = Uses<
  'now' | 'log' | 'tokens' | 'passwords' | 'mailer' | 'audit' | 'signIns',
  'users' | 'emailCodes' | 'passkeys',
  'centerAppId' | 'jwtSecret' | 'limits' | 'registerRequiresEmailCode'
>;

/**
 * E-mail codes: sending one under the per-address rules, checking and using it up, and the
 * flows that need nothing else (verifying the address, a forced reset, a re-authentication
 * code). AccountChanges and AccountService build on it.
 */
export class EmailCodes {
  constructor(
    protected readonly ctx: AccountDeps,
    protected readonly limiter: RateLimiter,
    /** The second step of a sign-in, for accounts that turned a second factor on. */
    protected readonly secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
    /** The owner's proof for an e-mail change, and its grant to the confirming step. */
    protected readonly reauth: Pick<
      ReauthService,
      'proveFor' | 'require' | 'clear'
    >,
    /** The CAPTCHA and who may register (docs/api.md §16). */
    protected readonly abuse: Pick<AbuseServices, 'captcha' | 'registration'>,
    /** Cutting every token off (an administrator's forced reset). */
    protected readonly sessions: Pick<SessionService, 'revokeAll'>,
  ) {
    this.codeHash = emailCodeHasher(ctx.config.jwtSecret);
  }

  /** E-mail codes as stored: a keyed hash (accounts' email-code-hash.ts). */
  protected readonly codeHash: (code: string) => string;

  async sendCode(
    email: string,
    purpose: string,
    caller: Caller,
    captcha?: string,
  ): Promise<SendCodeData> {
    const { storage } = this.ctx;
    if (!isValidEmail(email)) throw fail('badEmail');
    if (!isEmailPurpose(purpose)) throw badParam('purpose');
    await this.abuse.captcha.require(captcha);
    const key = asciiLower(email);
    await this.throttleSend(email, caller);
    const user = await storage.users.findByEmail(email);
    if (purpose === 'register' && user) throw fail('emailTaken');
    // Unknown e-mails get the same answer and the same throttle row, holding a code nobody can know.
    const deliver = purpose === 'register' || user !== undefined;
    // An account's codes go to the address stored on it, never to the text typed here.
    await this.storeAndMail(
      email,
      purpose,
      deliver ? (user?.email ?? email) : undefined,
      caller.language,
    );
    await this.ctx.audit.record('email_code.sent', {
      ip: caller.ip,
      target: key,
      detail: { purpose, delivered: deliver },
    });
    return { expires_in: EMAIL_CODE_TTL_S, resend_after: EMAIL_RESEND_AFTER_S };
  }

  /**
   * The per-address send rules: per client address, one a minute, a ceiling per address. The
   * shared counter makes the resend rule hold under parallel sends; the stored time keeps it
   * between instances that share only the database.
   */
  protected async throttleSend(email: string, caller: Caller): Promise<void> {
    const key = asciiLower(email);
    await this.limiter.takeOrRefuse('sendCodeIp', caller.ip);
    await this.limiter.takeOrRefuse('sendCodeResend', key);
    const last = await this.ctx.storage.emailCodes.lastSentAt(email);
    const resendMs = this.ctx.config.limits.sendCodeResend.windowS * 1000;
    if (last !== undefined && this.ctx.now() - last < resendMs)
      throw rateLimited((resendMs - (this.ctx.now() - last)) / 1000);
    await this.limiter.takeOrRefuse('sendCodeEmail', key);
  }

  /** Files a new code for (email, purpose) and mails it to `to`; without `to`, a code nobody can know. */
  protected async storeAndMail(
    email: string,
    purpose: EmailPurpose,
    to: string | undefined,
    language: Language | undefined,
  ): Promise<void> {
    const { now } = this.ctx;
    const code = randomDigits(EMAIL_CODE_LENGTH);
    const expiresAt = now() + EMAIL_CODE_TTL_S * 1000;
    await this.ctx.storage.emailCodes.create({
      email,
      purpose,
      codeHash: this.codeHash(to !== undefined ? code : randomToken(32)),
      expiresAt,
      createdAt: now(),
    });
    if (to === undefined) return;
    // Queued, not sent: the answer never waits for the mail server (src/platform/mail/mail-outbox.ts).
    await this.ctx.mailer.send(
      emailCodeMessage(
        to,
        purpose,
        code,
        { at: expiresAt, minutes: EMAIL_CODE_TTL_S / 60 },
        language,
      ),
    );
  }

  /**
   * Checks and uses up the newest code for (email, purpose). Every try is counted on the code
   * (one conditional UPDATE) before the code is compared, so parallel guesses on any number
   * of instances never get more than EMAIL_CODE_MAX_TRIES comparisons; then single use.
   */
  protected async consumeCode(
    email: string,
    purpose: EmailPurpose,
    code: string,
  ): Promise<void> {
    await this.useCode(await this.checkCode(email, purpose, code));
  }

  /** Counts a try at the newest code and compares it; the code stays usable (see useCode). */
  protected async checkCode(
    email: string,
    purpose: EmailPurpose,
    code: string,
  ): Promise<number> {
    const counted = await this.ctx.storage.emailCodes.takeTry(
      email,
      purpose,
      this.ctx.now(),
      EMAIL_CODE_MAX_TRIES,
    );
    if (!counted || !safeEqual(this.codeHash(code), counted.codeHash))
      throw fail('badEmailCode');
    return counted.id;
  }

  protected async useCode(
    id: number,
    emailCodes: Pick<EmailCodeRepo, 'markUsed'> = this.ctx.storage.emailCodes,
  ): Promise<void> {
    if (!(await emailCodes.markUsed(id, this.ctx.now())))
      throw fail('badEmailCode');
  }

  async verifyEmail(user: User, code: string): Promise<VerifyEmailData> {
    await this.consumeCode(user.email, 'verify', code);
    await this.ctx.storage.users.update(
      user.id,
      { emailVerified: true },
      this.ctx.now(),
    );
    return { email_verified: true };
  }

  /**
   * An administrator's forced reset: every token is cut off, and a reset_password code goes
   * to the address on the account (the per-address ceiling of send_code applies), in the
   * language of the administrator's request.
   */
  async forcePasswordReset(user: User, language?: Language): Promise<void> {
    await this.limiter.takeOrRefuse('sendCodeEmail', asciiLower(user.email));
    await this.sessions.revokeAll(user.id);
    await this.storeAndMail(user.email, 'reset_password', user.email, language);
  }

  /** No password (docs/api.md §10): a `reauth` code to the account's address, under the send_code limits. */
  async sendReauthCode(user: User, caller: Caller): Promise<SendCodeData> {
    if (hasPassword(user) || user.email === '') throw fail('reauthRequired');
    await this.throttleSend(user.email, caller);
    await this.storeAndMail(user.email, 'reauth', user.email, caller.language);
    await this.ctx.audit.record('email_code.sent', {
      actor: user.username,
      ip: caller.ip,
      target: asciiLower(user.email),
      detail: { purpose: 'reauth', delivered: true },
    });
    return { expires_in: EMAIL_CODE_TTL_S, resend_after: EMAIL_RESEND_AFTER_S };
  }
}
