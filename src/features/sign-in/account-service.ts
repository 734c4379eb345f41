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
import type { User } from '../accounts/index.js';
import type { Caller } from '../kit.js';
import { LoginThrottle } from '../limits/index.js';
import { signInMethod, type TokenEnvelope } from '../sessions/index.js';
import { AccountChanges } from './account-changes.js';
import { taken, type RegisterInput } from './email-codes.js';

export type { AccountDeps, RegisterInput } from './email-codes.js';

/** Registration, password and e-mail-code sign-in; the other e-mail code flows are inherited. */
export class AccountService extends AccountChanges {
  /** REGISTER_REQUIRES_EMAIL_CODE, for the sign-up page to mark the code field required or optional. */
  get emailCodeRequired(): boolean {
    return this.ctx.config.registerRequiresEmailCode;
  }

  /** A first-party token and its session; `method` as sessions record it (sessions' sign-in-method.ts). */
  protected async envelope(
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
  protected async upgradeHash(user: User, password: string): Promise<void> {
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
}
