import {
  badParam,
  bannedAtSignIn,
  fail,
  rateLimited,
} from '../../errors/index.js';
import { userEvent } from '../moderation/index.js';
import {
  DEFAULT_ROLES,
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_TTL_S,
  EMAIL_RESEND_AFTER_S,
  asciiLower,
  emailCodeHasher,
  isBanned,
  isEmailPurpose,
  isValidDisplayName,
  isValidEmail,
  isValidPassword,
  isValidUsername,
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
import { LoginThrottle, type RateLimiter } from '../limits/index.js';
import type {
  RegisterBody,
  SendCodeData,
  VerifyEmailData,
} from './contract.js';
import type { SecondFactorService } from '../second-factor/index.js';
import {
  emailChangedNotice,
  emailCodeMessage,
  passwordChangedNotice,
} from './account-notices.js';
import {
  hasPassword,
  type ReauthProof,
  type ReauthService,
} from '../reauth/index.js';
import {
  signInMethod,
  type Authenticated,
  type SessionService,
  type TokenEnvelope,
} from '../sessions/index.js';
import type { AbuseServices } from '../abuse/index.js';

export type RegisterInput = RegisterBody;

function taken(err: unknown): never {
  if (err instanceof UniqueViolation)
    throw fail(err.field === 'email' ? 'emailTaken' : 'usernameTaken');
  throw err;
}

export type AccountDeps = Uses<
  'now' | 'log' | 'tokens' | 'passwords' | 'mailer' | 'audit' | 'signIns',
  'users' | 'emailCodes' | 'passkeys',
  'centerAppId' | 'jwtSecret' | 'limits' | 'registerRequiresEmailCode'
>;

/** Registration, password and e-mail-code sign-in, e-mail verification and password reset. */
export class AccountService {
  constructor(
    private readonly ctx: AccountDeps,
    private readonly limiter: RateLimiter,
    /** The second step of a sign-in, for accounts that turned a second factor on. */
    private readonly secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
    /** The owner's proof for an e-mail change, and its grant to the confirming step. */
    private readonly reauth: Pick<
      ReauthService,
      'proveFor' | 'require' | 'clear'
    >,
    /** The CAPTCHA and who may register (docs/api.md §16). */
    private readonly abuse: Pick<AbuseServices, 'captcha' | 'registration'>,
    /** Cutting every token off (an administrator's forced reset). */
    private readonly sessions: Pick<SessionService, 'revokeAll'>,
  ) {
    this.codeHash = emailCodeHasher(ctx.config.jwtSecret);
  }

  /** E-mail codes as stored: a keyed hash (accounts' email-code-hash.ts). */
  private readonly codeHash: (code: string) => string;

  /** REGISTER_REQUIRES_EMAIL_CODE, for the sign-up page to mark the code field required or optional. */
  get emailCodeRequired(): boolean {
    return this.ctx.config.registerRequiresEmailCode;
  }

  /** A first-party token and its session; `method` as sessions record it (sessions' sign-in-method.ts). */
  private async envelope(
    user: User,
    caller: Caller,
    method = '',
  ): Promise<TokenEnvelope> {
    const issued = await this.ctx.tokens.envelope(
      user,
      this.ctx.config.centerAppId,
    );
    await this.ctx.signIns.record(issued.claims, user, caller, method);
    return issued.body;
  }

  async register(input: RegisterInput, caller: Caller): Promise<TokenEnvelope> {
    const { storage, config, now } = this.ctx;
    if (!isValidUsername(input.username)) throw fail('badUsername');
    if (!isValidPassword(input.password)) throw fail('badPassword');
    if (!isValidEmail(input.email)) throw fail('badEmail');
    if (
      input.display_name !== undefined &&
      !isValidDisplayName(input.display_name)
    )
      throw badParam('display_name');
    if (config.registerRequiresEmailCode && input.email_code === undefined)
      throw badParam('email_code');
    this.abuse.registration.admit(input.email, input.invite_code);
    await this.abuse.captcha.require(input.captcha);
    await this.limiter.takeOrRefuse('registerIp', caller.ip);
    if (await storage.users.findByUsername(input.username))
      throw fail('usernameTaken');
    if (await storage.users.findByEmail(input.email)) throw fail('emailTaken');
    await this.abuse.registration.requireInvite(input.invite_code);
    // Outside the transaction: a try rolled back with it would not count, and SQLite would wait on argon2.
    const emailCodeId =
      input.email_code === undefined
        ? undefined
        : await this.checkCode(input.email, 'register', input.email_code);
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const user = await this.abuse.registration.withInvite(
      input.invite_code,
      async (tx) => {
        if (emailCodeId !== undefined)
          await this.useCode(emailCodeId, tx.emailCodes);
        const displayName = input.display_name?.trim() || input.username;
        return tx.users
          .create(
            {
              username: input.username,
              email: input.email,
              displayName,
              passwordHash,
              emailVerified: emailCodeId !== undefined,
              roles: [...DEFAULT_ROLES],
            },
            now(),
            (created) => [
              userEvent('user.created', created, {
                display_name: created.displayName,
                email: created.email,
              }),
            ],
          )
          .catch(taken);
      },
    );
    await this.ctx.audit.record('user.register', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return this.envelope(user, caller);
  }

  /**
   * Same answer and about the same time for an unknown user and a wrong password. The second
   * factor is asked for only once the password was right, so its answers tell nothing to
   * someone who does not have the password.
   */
  async login(
    login: string,
    password: string,
    caller: Caller,
    otp?: string,
    captcha?: string,
  ): Promise<TokenEnvelope> {
    const user = await this.ctx.storage.users.findByLogin(login);
    const throttle = new LoginThrottle(
      this.limiter,
      asciiLower(login),
      user?.id,
      caller.ip,
    );
    const { captcha: gate } = this.abuse;
    if (await gate.signInGateUp(() => throttle.failedTries()))
      await gate.require(captcha);
    await throttle.begin();
    const ok = await this.ctx.passwords.verify(user?.passwordHash, password);
    if (!user || !ok) {
      await this.ctx.audit.record('login.failure', {
        actor: user?.username ?? null,
        ip: caller.ip,
        target: user?.username ?? null,
        detail: { method: 'password' },
      });
      throw fail('badCredentials');
    }
    await throttle.succeeded();
    if (this.ctx.passwords.needsRehash(user.passwordHash))
      await this.upgradeHash(user, password);
    const secondFactor = await this.secondFactor.checkSignIn(
      user,
      otp,
      caller,
      'password',
    );
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    await this.ctx.audit.signedIn(user, caller, 'password');
    return this.envelope(user, caller, signInMethod('', secondFactor));
  }

  /** Replaces an imported hash by argon2id once the password is known to be right. */
  private async upgradeHash(user: User, password: string): Promise<void> {
    try {
      await this.ctx.storage.users.update(
        user.id,
        { passwordHash: await this.ctx.passwords.hash(password) },
        this.ctx.now(),
      );
    } catch (err) {
      this.ctx.log.error(
        { err, uid: user.id },
        'could not replace an imported password hash; will retry at the next sign-in',
      );
    }
  }

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
  private async throttleSend(email: string, caller: Caller): Promise<void> {
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
  private async storeAndMail(
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
    await this.throttleSend(email, caller);
    await this.checkNewEmail(user, email);
    await this.storeAndMail(email, 'change_email', email, caller.language);
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
    await this.consumeCode(email, 'change_email', code);
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

  /**
   * Checks and uses up the newest code for (email, purpose). Every try is counted on the code
   * (one conditional UPDATE) before the code is compared, so parallel guesses on any number
   * of instances never get more than EMAIL_CODE_MAX_TRIES comparisons; then single use.
   */
  private async consumeCode(
    email: string,
    purpose: EmailPurpose,
    code: string,
  ): Promise<void> {
    await this.useCode(await this.checkCode(email, purpose, code));
  }

  /** Counts a try at the newest code and compares it; the code stays usable (see useCode). */
  private async checkCode(
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

  private async useCode(
    id: number,
    emailCodes: Pick<EmailCodeRepo, 'markUsed'> = this.ctx.storage.emailCodes,
  ): Promise<void> {
    if (!(await emailCodes.markUsed(id, this.ctx.now())))
      throw fail('badEmailCode');
  }

  /**
   * The e-mail code is checked (its try counted) but only used up once the second factor,
   * when the account has one, passed too: the page sends the same code again with `otp`.
   */
  async loginByCode(
    email: string,
    code: string,
    caller: Caller,
    otp?: string,
  ): Promise<TokenEnvelope> {
    if (!isValidEmail(email)) throw fail('badEmail');
    const user = await this.ctx.storage.users.findByEmail(email);
    if (!user) throw fail('badEmailCode');
    const failed = async (err: unknown): Promise<never> => {
      await this.ctx.audit.record('login.failure', {
        actor: user.username,
        ip: caller.ip,
        target: user.username,
        detail: { method: 'email_code' },
      });
      throw err;
    };
    const codeId = await this.checkCode(user.email, 'login', code).catch(
      failed,
    );
    const secondFactor = await this.secondFactor.checkSignIn(
      user,
      otp,
      caller,
      'email_code',
    );
    await this.useCode(codeId).catch(failed);
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    await this.ctx.audit.signedIn(user, caller, 'email_code');
    return this.envelope(user, caller, signInMethod('', secondFactor));
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
    await this.consumeCode(user.email, 'reset_password', code);
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
