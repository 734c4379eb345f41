import { AppError } from '../../errors/index.js';
import type { User } from '../accounts/index.js';
import { asciiLower } from '../accounts/index.js';
import type { Caller, Uses } from '../kit.js';
import { LoginThrottle, type RateLimiter } from '../limits/index.js';
import type { SecondFactorService } from '../second-factor/index.js';
import { forbidden, invalidCredentials } from './yggdrasil-errors.js';

export type SignInDeps = Uses<'passwords' | 'tokens' | 'audit', 'users' | 'minecraft', 'gameAppId'>;

/** A game token is one of the center's JWTs: three base64url parts. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The credentials of `authenticate` and `signout` (docs/api.md §18.3): the username, e-mail or
 * a profile name, with the password (only for accounts without a second factor) or a game
 * token of that same account. Counted on the login's own limits before anything is checked.
 */
export class YggdrasilSignIn {
  constructor(
    private readonly ctx: SignInDeps,
    private readonly limiter: RateLimiter,
    private readonly secondFactor: Pick<SecondFactorService, 'required'>,
  ) {}

  async check(login: string, secret: string, caller: Caller): Promise<User> {
    const user = await this.findAccount(login);
    const throttle = new LoginThrottle(this.limiter, asciiLower(login), user?.id, caller.ip);
    try {
      await throttle.begin();
    } catch (err) {
      // The protocol has no "slow down": launchers show the message of a refused sign-in.
      if (err instanceof AppError) throw invalidCredentials();
      throw err;
    }
    const method = JWT_SHAPE.test(secret) ? 'game_token' : 'password';
    const ok = method === 'game_token' ? await this.gameTokenOf(user, secret) : await this.passwordOf(user, secret);
    if (!user || !ok) {
      await this.ctx.audit.record('login.failure', { actor: user?.username ?? null, ip: caller.ip, target: user?.username ?? null, detail: { method: `minecraft:${method}` } });
      throw invalidCredentials();
    }
    await throttle.succeeded();
    if (user.banned) throw forbidden('账号已被封禁');
    await this.ctx.audit.record('minecraft.authenticate', { actor: user.username, ip: caller.ip, target: user.username, detail: { method } });
    return user;
  }

  private async findAccount(login: string): Promise<User | undefined> {
    const user = await this.ctx.storage.users.findByLogin(login);
    if (user) return user;
    // `non_email_login`: a player may type the name of their character.
    const profile = await this.ctx.storage.minecraft.profiles.findByName(login);
    return profile && this.ctx.storage.users.findById(profile.userId);
  }

  /** The password counts only for accounts without a second factor; the hash is checked either way, for even timing. */
  private async passwordOf(user: User | undefined, password: string): Promise<boolean> {
    const ok = await this.ctx.passwords.verify(user?.passwordHash, password);
    return ok && user !== undefined && !(await this.secondFactor.required(user.id));
  }

  /** A live game token (CONTRACT §7) of this very account. */
  private async gameTokenOf(user: User | undefined, token: string): Promise<boolean> {
    if (!user) return false;
    try {
      const auth = await this.ctx.tokens.check(`Bearer ${token}`);
      return auth.claims.app === this.ctx.config.gameAppId && auth.user.id === user.id;
    } catch {
      return false;
    }
  }
}
