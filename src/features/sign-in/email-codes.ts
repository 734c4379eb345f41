import { fail, rateLimited } from '../../errors/index.js';
import {
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_TTL_S,
  asciiLower,
  emailCodeHasher,
} from '../accounts/index.js';
import type { EmailCodeRepo, EmailPurpose } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import {
  randomDigits,
  randomToken,
  safeEqual,
} from '../../platform/crypto/random.js';
import type { Language } from '../../platform/i18n/language.js';
import type { RateLimiter } from '../limits/index.js';
import { emailCodeMessage } from './account-notices.js';
import type { Config } from '../../config/index.js';
import type { Mailer } from '../../platform/mail/mailer.js';

/** What filing, mailing and checking e-mail codes needs. */
export interface EmailCodeDeps {
  readonly now: () => number;
  readonly mailer: Mailer;
  readonly storage: { readonly emailCodes: EmailCodeRepo };
  readonly config: Pick<Config, 'jwtSecret' | 'limits'>;
}

/** E-mail codes (docs/api.md §2): the send limits, filing one and mailing it, a counted check and single use. */
export class EmailCodes {
  constructor(
    private readonly ctx: EmailCodeDeps,
    private readonly limiter: RateLimiter,
  ) {
    this.codeHash = emailCodeHasher(ctx.config.jwtSecret);
  }

  /** E-mail codes as stored: a keyed hash (accounts' email-code-hash.ts). */
  private readonly codeHash: (code: string) => string;

  /**
   * The per-address send rules: per client address, one a minute, a ceiling per address. The
   * shared counter makes the resend rule hold under parallel sends; the stored time keeps it
   * between instances that share only the database.
   */
  async throttleSend(email: string, caller: Caller): Promise<void> {
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
  async storeAndMail(
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
  async consume(
    email: string,
    purpose: EmailPurpose,
    code: string,
  ): Promise<void> {
    await this.use(await this.check(email, purpose, code));
  }

  /** Counts a try at the newest code and compares it; the code stays usable (see use). */
  async check(
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

  async use(
    id: number,
    emailCodes: Pick<EmailCodeRepo, 'markUsed'> = this.ctx.storage.emailCodes,
  ): Promise<void> {
    if (!(await emailCodes.markUsed(id, this.ctx.now())))
      throw fail('badEmailCode');
  }
}
