import { fail } from '../../errors/index.js';
import { userEvent } from '../moderation/index.js';
import {
  EMAIL_CODE_TTL_S,
  EMAIL_RESEND_AFTER_S,
  asciiLower,
  isValidEmail,
  isValidPassword,
} from '../accounts/index.js';
import type { User } from '../accounts/index.js';
import type { Caller } from '../kit.js';
import type { SendCodeData } from './contract.js';
import {
  emailChangedNotice,
  passwordChangedNotice,
} from './account-notices.js';
import type { ReauthProof } from '../reauth/index.js';
import type { Authenticated } from '../sessions/index.js';
import { EmailCodes, taken } from './email-codes.js';

/** Changing the e-mail address and resetting the password with a mailed code. */
export class AccountChanges extends EmailCodes {
  /** New address must be neither the current one nor another account's. */
  protected async checkNewEmail(user: User, email: string): Promise<void> {
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
}
