import { badParam, bannedAtSignIn, fail } from '../../errors/index.js';
import { userEvent } from '../moderation/index.js';
import {
  DEFAULT_ROLES,
  asciiLower,
  isBanned,
  isValidDisplayName,
  isValidEmail,
  isValidPassword,
  isValidUsername,
} from '../accounts/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { EmailCodeRepo, User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import { LoginThrottle, type RateLimiter } from '../limits/index.js';
import type { RegisterBody } from './contract.js';
import type { SecondFactorService } from '../second-factor/index.js';
import { signInMethod, type TokenEnvelope } from '../sessions/index.js';
import type { Captcha, InviteRepo, Registration } from '../abuse/index.js';
import type { Config } from '../../config/index.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { SignIns, TokenService } from '../sessions/index.js';
import type { Logger } from 'pino';
import { EmailCodes } from './email-codes.js';

export type RegisterInput = RegisterBody;

/** A unique name or address another account took first, as its 409. */
export function taken(err: unknown): never {
  if (err instanceof UniqueViolation)
    throw fail(err.field === 'email' ? 'emailTaken' : 'usernameTaken');
  throw err;
}

export interface AccountDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
    readonly emailCodes: EmailCodeRepo;
  };
  readonly config: Pick<
    Config,
    'centerAppId' | 'jwtSecret' | 'limits' | 'registerRequiresEmailCode'
  >;
}

/** Registration, password and e-mail-code sign-in, e-mail verification and password reset. */
export class AccountService {
  constructor(
    private readonly ctx: AccountDeps,
    private readonly limiter: RateLimiter,
    /** The second step of a sign-in, for accounts that turned a second factor on. */
    private readonly secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
    /** The CAPTCHA and who may register (docs/api.md §16). */
    private readonly abuse: {
      readonly captcha: Captcha;
      /** A new account's writes commit with the use of its invite code. */
      readonly registration: Registration<{
        readonly invites: InviteRepo;
        readonly users: UserRepo;
        readonly emailCodes: EmailCodeRepo;
      }>;
    },
  ) {
    this.codes = new EmailCodes(ctx, limiter);
  }

  private readonly codes: EmailCodes;

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
        : await this.codes.check(input.email, 'register', input.email_code);
    const passwordHash = await this.ctx.passwords.hash(input.password);
    const user = await this.abuse.registration.withInvite(
      input.invite_code,
      async (tx) => {
        if (emailCodeId !== undefined)
          await this.codes.use(emailCodeId, tx.emailCodes);
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
    const codeId = await this.codes
      .check(user.email, 'login', code)
      .catch(failed);
    const secondFactor = await this.secondFactor.checkSignIn(
      user,
      otp,
      caller,
      'email_code',
    );
    await this.codes.use(codeId).catch(failed);
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    await this.ctx.audit.signedIn(user, caller, 'email_code');
    return this.envelope(user, caller, signInMethod('', secondFactor));
  }
}
