import { badParam, fail } from '../../errors/index.js';
import { userEvent } from '../moderation/index.js';
import {
  EMAIL_CODE_TTL_S,
  EMAIL_RESEND_AFTER_S,
  asciiLower,
  isEmailPurpose,
  isValidEmail,
  isValidPassword,
} from '../accounts/index.js';
import type { EmailCodeRepo, User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Language } from '../../platform/i18n/language.js';
import type { RateLimiter } from '../limits/index.js';
import type { SendCodeData, VerifyEmailData } from './contract.js';
import {
  emailChangedNotice,
  passwordChangedNotice,
} from './account-notices.js';
import {
  hasPassword,
  type ReauthProof,
  type ReauthService,
} from '../reauth/index.js';
import type { Authenticated, SessionService } from '../sessions/index.js';
import type { Captcha } from '../abuse/index.js';
import type { Config } from '../../config/index.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { PasskeyRepo } from '../second-factor/index.js';
import type { SignIns } from '../sessions/index.js';
import type { Logger } from 'pino';
import { EmailCodes } from './email-codes.js';
import { taken } from './account-service.js';

/** What the e-mail steps of an account are built from. */
export interface AccountEmailDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
    readonly emailCodes: EmailCodeRepo;
    readonly passkeys: PasskeyRepo;
  };
  readonly config: Pick<Config, 'jwtSecret' | 'limits'>;
}

/**
 * What an account does through codes mailed to it, besides signing in: sending them, verifying
 * the address, resetting the password (also an administrator's forced reset), moving to a new
 * address, and the `reauth` code of an account without a password.
 */
export class AccountEmails {
  constructor(
    private readonly ctx: AccountEmailDeps,
    private readonly limiter: RateLimiter,
    private readonly captcha: Pick<Captcha, 'require'>,
    /** The owner's proof for an e-mail change, and its grant to the confirming step. */
    private readonly reauth: Pick<
      ReauthService,
      'proveFor' | 'require' | 'clear'
    >,
    /** Cutting every token off (an administrator's forced reset). */
    private readonly sessions: Pick<SessionService, 'revokeAll'>,
  ) {
    this.codes = new EmailCodes(ctx, limiter);
  }

  private readonly codes: EmailCodes;

  async sendCode(
    email: string,
    purpose: string,
    caller: Caller,
    captcha?: string,
  ): Promise<SendCodeData> {
    const { storage } = this.ctx;
    if (!isValidEmail(email)) throw fail('badEmail');
    if (!isEmailPurpose(purpose)) throw badParam('purpose');
    await this.captcha.require(captcha);
    const key = asciiLower(email);
    await this.codes.throttleSend(email, caller);
    const user = await storage.users.findByEmail(email);
    if (purpose === 'register' && user) throw fail('emailTaken');
    // Unknown e-mails get the same answer and the same throttle row, holding a code nobody can know.
    const deliver = purpose === 'register' || user !== undefined;
    // An account's codes go to the address stored on it, never to the text typed here.
    await this.codes.storeAndMail(
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

  /** New address must be neither the current one nor another account's. */
  private async checkNewEmail(user: User, email: string): Promise<void> {
    if (asciiLower(email) === asciiLower(user.email)) throw fail('sameEmail');
    if (await this.ctx.storage.users.findByEmail(email))
      throw fail('emailTaken');
  }

  /**
   * Mails a `change_email` code to the new address; only changeEmail accepts it. The order
   * matters: the owner's proof, then every limit counted like a send, and only then whether
   * the address is taken, so that the answer `邮箱已被注册` is never an unthrottled oracle.
   */
  async sendEmailChangeCode(
    auth: Authenticated,
    email: string,
    proof: ReauthProof,
    caller: Caller,
  ): Promise<SendCodeData> {
    const { user } = auth;
    if (!isValidEmail(email)) throw fail('badEmail');
    await this.reauth.proveFor(auth, 'email', proof, caller);
    await this.limiter.takeOrRefuse('emailChangeUser', `uid:${user.id}`);
    await this.codes.throttleSend(email, caller);
    await this.checkNewEmail(user, email);
    await this.codes.storeAndMail(
      email,
      'change_email',
      email,
      caller.language,
    );
    await this.ctx.audit.record('email_code.sent', {
      actor: user.username,
      ip: caller.ip,
      target: asciiLower(email),
      detail: { purpose: 'change_email', delivered: true },
    });
    return { expires_in: EMAIL_CODE_TTL_S, resend_after: EMAIL_RESEND_AFTER_S };
  }

  /**
   * Moves the account to the new address once the code mailed there is given back, in the
   * session that proved itself when asking for the code: the new address is thereby
   * verified; the old one is told, so a hijack does not go unnoticed.
   */
  async changeEmail(
    auth: Authenticated,
    email: string,
    code: string,
    caller: Caller,
  ): Promise<{ email: string; email_verified: true }> {
    const { user } = auth;
    if (!isValidEmail(email)) throw fail('badEmail');
    await this.reauth.require(auth, 'email');
    await this.checkNewEmail(user, email);
    await this.codes.consume(email, 'change_email', code);
    const now = this.ctx.now();
    await this.ctx.storage.users
      .update(user.id, { email, emailVerified: true }, now, [
        userEvent('user.updated', user, { email }),
      ])
      .catch(taken);
    await this.reauth.clear(auth, 'email');
    await this.ctx.mailer
      .send(emailChangedNotice(user, email, now, caller.language))
      .catch((err: unknown) =>
        this.ctx.log.warn(
          { err, uid: user.id },
          'could not queue the e-mail change notice',
        ),
      );
    await this.ctx.audit.record('user.email_change', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return { email, email_verified: true };
  }

  async verifyEmail(user: User, code: string): Promise<VerifyEmailData> {
    await this.codes.consume(user.email, 'verify', code);
    await this.ctx.storage.users.update(
      user.id,
      { emailVerified: true },
      this.ctx.now(),
    );
    return { email_verified: true };
  }

  async resetPassword(
    email: string,
    code: string,
    newPassword: string,
    caller: Caller,
  ): Promise<void> {
    const { storage, now } = this.ctx;
    if (!isValidEmail(email)) throw fail('badEmail');
    if (!isValidPassword(newPassword)) throw fail('badPassword');
    const user = await storage.users.findByEmail(email);
    if (!user) throw fail('badEmailCode');
    await this.codes.consume(user.email, 'reset_password', code);
    const passwordHash = await this.ctx.passwords.hash(newPassword);
    await storage.users.update(
      user.id,
      { passwordHash, tokensValidAfter: now() },
      now(),
      [
        userEvent('user.password_changed', user),
        userEvent('user.sessions_revoked', user, { cause: 'password_reset' }),
      ],
    );
    await this.ctx.signIns.markAllEnded(user.id);
    await this.ctx.audit.record('user.password_reset', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    // Passkeys outlive the reset: the owner learns which ones still sign in.
    await this.ctx.mailer
      .send(
        passwordChangedNotice(
          user,
          await storage.passkeys.listByUser(user.id),
          now(),
          caller.language,
        ),
      )
      .catch((err: unknown) =>
        this.ctx.log.warn(
          { err, uid: user.id },
          'could not queue the password reset notice',
        ),
      );
  }

  /**
   * An administrator's forced reset: every token is cut off, and a reset_password code goes
   * to the address on the account (the per-address ceiling of send_code applies), in the
   * language of the administrator's request.
   */
  async forcePasswordReset(user: User, language?: Language): Promise<void> {
    await this.limiter.takeOrRefuse('sendCodeEmail', asciiLower(user.email));
    await this.sessions.revokeAll(user.id);
    await this.codes.storeAndMail(
      user.email,
      'reset_password',
      user.email,
      language,
    );
  }

  /** No password (docs/api.md §10): a `reauth` code to the account's address, under the send_code limits. */
  async sendReauthCode(user: User, caller: Caller): Promise<SendCodeData> {
    if (hasPassword(user) || user.email === '') throw fail('reauthRequired');
    await this.codes.throttleSend(user.email, caller);
    await this.codes.storeAndMail(
      user.email,
      'reauth',
      user.email,
      caller.language,
    );
    await this.ctx.audit.record('email_code.sent', {
      actor: user.username,
      ip: caller.ip,
      target: asciiLower(user.email),
      detail: { purpose: 'reauth', delivered: true },
    });
    return { expires_in: EMAIL_CODE_TTL_S, resend_after: EMAIL_RESEND_AFTER_S };
  }
}
