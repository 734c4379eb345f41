import { createHmac } from 'node:crypto';
import { AppError, MSG, badParam } from '../errors/index.js';
import {
  DEFAULT_ROLES, EMAIL_CODE_LENGTH, EMAIL_CODE_MAX_TRIES, EMAIL_CODE_TTL_S, EMAIL_RESEND_AFTER_S,
  isEmailPurpose, isValidDisplayName, isValidEmail, isValidPassword, isValidUsername,
} from '../domain/accounts.js';
import { UniqueViolation, type EmailPurpose, type User } from '../storage/types.js';
import type { Caller, ServiceContext } from './context.js';
import { randomDigits, randomToken, safeEqual } from './crypto.js';
import { limiterOf, loginThrottle } from './limits.js';
import type { TokenEnvelope } from './tokens.js';

export interface RegisterInput {
  username: string;
  password: string;
  email: string;
  display_name?: string;
  email_code?: string;
}

const PURPOSE_SUBJECT: Record<EmailPurpose, string> = {
  register: '注册验证码',
  login: '登录验证码',
  verify: '邮箱验证码',
  reset_password: '重置密码验证码',
};

function taken(err: unknown): never {
  if (err instanceof UniqueViolation) {
    throw new AppError(409, err.field === 'email' ? MSG.emailTaken : MSG.usernameTaken);
  }
  throw err;
}

/** Registration, password and e-mail-code sign-in, e-mail verification and password reset. */
export class AccountService {
  constructor(private readonly ctx: ServiceContext) {}

  /** E-mail codes are kept as a keyed hash, so a database dump does not reveal live codes. */
  private codeHash(code: string): string {
    return createHmac('sha256', this.ctx.config.jwtSecret).update(code).digest('hex');
  }

  private envelope(user: User): TokenEnvelope {
    return this.ctx.tokens.envelope(user, this.ctx.config.centerAppId).body;
  }

  async register(input: RegisterInput, caller: Caller): Promise<TokenEnvelope> {
    const { storage, config, now } = this.ctx;
    if (!isValidUsername(input.username)) throw new AppError(400, MSG.badUsername);
    if (!isValidPassword(input.password)) throw new AppError(400, MSG.badPassword);
    if (!isValidEmail(input.email)) throw new AppError(400, MSG.badEmail);
    if (input.display_name !== undefined && !isValidDisplayName(input.display_name)) throw badParam('display_name');
    if (config.registerRequiresEmailCode && input.email_code === undefined) throw badParam('email_code');
    await limiterOf(this.ctx).take('registerIp', caller.ip);
    if (await storage.users.findByUsername(input.username)) throw new AppError(409, MSG.usernameTaken);
    if (await storage.users.findByEmail(input.email)) throw new AppError(409, MSG.emailTaken);
    if (input.email_code !== undefined) await this.consumeCode(input.email, 'register', input.email_code);
    const user = await storage.users.create({
      username: input.username,
      email: input.email,
      displayName: input.display_name?.trim() || input.username,
      passwordHash: await this.ctx.passwords.hash(input.password),
      emailVerified: input.email_code !== undefined,
      roles: [...DEFAULT_ROLES],
    }, now()).catch(taken);
    await this.ctx.audit.record('user.register', { actor: user.username, ip: caller.ip, target: user.username });
    return this.envelope(user);
  }

  /** Same answer and about the same time for an unknown user and a wrong password. */
  async login(login: string, password: string, caller: Caller): Promise<TokenEnvelope> {
    const user = await this.ctx.storage.users.findByLogin(login);
    const throttle = loginThrottle(this.ctx, login, user?.id, caller.ip);
    await throttle.begin();
    const ok = await this.ctx.passwords.verify(user?.passwordHash, password);
    if (!user || !ok) {
      await throttle.failed();
      await this.ctx.audit.record('login.failure', { actor: user?.username ?? null, ip: caller.ip, target: user?.username ?? null, detail: { method: 'password' } });
      throw new AppError(401, MSG.badCredentials);
    }
    await throttle.succeeded();
    if (user.banned) throw new AppError(403, MSG.banned);
    await this.ctx.audit.record('login.success', { actor: user.username, ip: caller.ip, target: user.username, detail: { method: 'password' } });
    return this.envelope(user);
  }

  async sendCode(email: string, purpose: string, caller: Caller): Promise<{ expires_in: number; resend_after: number }> {
    const { storage, now } = this.ctx;
    if (!isValidEmail(email)) throw new AppError(400, MSG.badEmail);
    if (!isEmailPurpose(purpose)) throw badParam('purpose');
    await limiterOf(this.ctx).take('sendCodeIp', caller.ip);
    const last = await storage.emailCodes.lastSentAt(email);
    if (last !== undefined && now() - last < EMAIL_RESEND_AFTER_S * 1000) throw new AppError(429, MSG.rateLimited);
    await limiterOf(this.ctx).take('sendCodeEmail', email.toLowerCase());
    const user = await storage.users.findByEmail(email);
    if (purpose === 'register' && user) throw new AppError(409, MSG.emailTaken);
    // Unknown e-mails get the same answer and the same throttle row, holding a code nobody can know.
    const deliver = purpose === 'register' || user !== undefined;
    const code = randomDigits(EMAIL_CODE_LENGTH);
    await storage.emailCodes.create({
      email, purpose, codeHash: this.codeHash(deliver ? code : randomToken(32)),
      expiresAt: now() + EMAIL_CODE_TTL_S * 1000, createdAt: now(),
    });
    if (deliver) {
      await this.ctx.mailer.send({
        to: email,
        subject: `Account Center ${PURPOSE_SUBJECT[purpose]}`,
        text: `您的${PURPOSE_SUBJECT[purpose]}是 ${code}，${EMAIL_CODE_TTL_S / 60} 分钟内有效。如非本人操作，请忽略本邮件。`,
      });
    }
    await this.ctx.audit.record('email_code.sent', { ip: caller.ip, target: email.toLowerCase(), detail: { purpose, delivered: deliver } });
    return { expires_in: EMAIL_CODE_TTL_S, resend_after: EMAIL_RESEND_AFTER_S };
  }

  /** Checks and uses up the newest code for (email, purpose); wrong tries count against it. */
  private async consumeCode(email: string, purpose: EmailPurpose, code: string): Promise<void> {
    const { storage, now } = this.ctx;
    const fail = new AppError(400, MSG.badEmailCode);
    const latest = await storage.emailCodes.findLatest(email, purpose, now());
    if (!latest || latest.attempts >= EMAIL_CODE_MAX_TRIES) throw fail;
    if (!safeEqual(this.codeHash(code), latest.codeHash)) {
      await storage.emailCodes.addAttempt(latest.id);
      throw fail;
    }
    if (!(await storage.emailCodes.markUsed(latest.id, now()))) throw fail;
  }

  async loginByCode(email: string, code: string, caller: Caller): Promise<TokenEnvelope> {
    if (!isValidEmail(email)) throw new AppError(400, MSG.badEmail);
    const user = await this.ctx.storage.users.findByEmail(email);
    if (!user) throw new AppError(400, MSG.badEmailCode);
    await this.consumeCode(email, 'login', code).catch(async (err: unknown) => {
      await this.ctx.audit.record('login.failure', { actor: user.username, ip: caller.ip, target: user.username, detail: { method: 'email_code' } });
      throw err;
    });
    if (user.banned) throw new AppError(403, MSG.banned);
    await this.ctx.audit.record('login.success', { actor: user.username, ip: caller.ip, target: user.username, detail: { method: 'email_code' } });
    return this.envelope(user);
  }

  async verifyEmail(user: User, code: string): Promise<{ email_verified: true }> {
    await this.consumeCode(user.email, 'verify', code);
    await this.ctx.storage.users.update(user.id, { emailVerified: true }, this.ctx.now());
    this.ctx.state.userChanged(user.id);
    return { email_verified: true };
  }

  async resetPassword(email: string, code: string, newPassword: string, caller: Caller): Promise<void> {
    const { storage, now } = this.ctx;
    if (!isValidEmail(email)) throw new AppError(400, MSG.badEmail);
    if (!isValidPassword(newPassword)) throw new AppError(400, MSG.badPassword);
    const user = await storage.users.findByEmail(email);
    if (!user) throw new AppError(400, MSG.badEmailCode);
    await this.consumeCode(email, 'reset_password', code);
    const passwordHash = await this.ctx.passwords.hash(newPassword);
    await storage.users.update(user.id, { passwordHash, tokensValidAfter: now() }, now());
    this.ctx.state.userChanged(user.id);
    await this.ctx.audit.record('user.password_reset', { actor: user.username, ip: caller.ip, target: user.username });
  }

  /** Ends every token of the user issued until now (logout-all). */
  async revokeAll(userId: number): Promise<void> {
    await this.ctx.storage.users.update(userId, { tokensValidAfter: this.ctx.now() }, this.ctx.now());
    this.ctx.state.userChanged(userId);
  }
}
