import { AppError } from '../../errors/index.js';
import type { User } from '../accounts/index.js';
import { asciiLower, isBanned } from '../accounts/index.js';
import type { Captcha } from '../abuse/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import { LoginThrottle, type RateLimiter } from '../limits/index.js';
import type { SecondFactorService } from '../second-factor/index.js';
import {
  bannedAccount,
  captchaGateUp,
  invalidCredentials,
} from './yggdrasil-errors.js';
import type { Config } from '../../config/index.js';
import type { Passwords } from '../../platform/crypto/passwords.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { TokenService } from '../sessions/index.js';
import type { MinecraftRepos } from './repository.js';

export interface SignInDeps {
  readonly now: () => number;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly minecraft: MinecraftRepos;
  };
  readonly config: Pick<Config, 'gameAppId'>;
}

/** What the credentials are for: a sign-in (recorded in the history) or `signout`. */
export type SignInPurpose = 'authenticate' | 'signout';

/** A game token is one of the center's JWTs: three base64url parts. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The credentials of `authenticate` and `signout` (docs/api.md §18.3): a profile name, the
 * username or the e-mail, with the password (only for accounts without a second factor) or a
 * game token of that same account. Counted on the login's own limits before anything is
 * checked; refused for a password once /login would ask for a CAPTCHA; a ban is judged by the
 * rule /login uses; a password sign-in is reported like /login's, for the history and notice.
 */
export class YggdrasilSignIn {
  constructor(
    private readonly ctx: SignInDeps,
    private readonly limiter: RateLimiter,
    private readonly secondFactor: Pick<SecondFactorService, 'required'>,
    private readonly captcha: Pick<Captcha, 'signInGateUp'>,
  ) {}

  async check(
    login: string,
    secret: string,
    caller: Caller,
    purpose: SignInPurpose,
  ): Promise<User> {
    const user = await this.findAccount(login);
    const throttle = new LoginThrottle(
      this.limiter,
      asciiLower(login),
      user?.id,
      caller.ip,
    );
    const method = JWT_SHAPE.test(secret) ? 'game_token' : 'password';
    // A launcher cannot show the CAPTCHA /login now asks for: passwords wait, game tokens (unguessable) do not.
    if (
      method === 'password' &&
      (await this.captcha.signInGateUp(() => throttle.failedTries()))
    )
      throw captchaGateUp();
    try {
      await throttle.begin();
    } catch (err) {
      // The protocol has no "slow down": launchers show the message of a refused sign-in.
      if (err instanceof AppError) throw invalidCredentials();
      throw err;
    }
    const ok =
      method === 'game_token'
        ? await this.gameTokenOf(user, secret)
        : await this.passwordOf(user, secret);
    if (!user || !ok) {
      await this.ctx.audit.record('login.failure', {
        actor: user?.username ?? null,
        ip: caller.ip,
        target: user?.username ?? null,
        detail: { method: `minecraft:${method}` },
      });
      throw invalidCredentials();
    }
    await throttle.succeeded();
    if (isBanned(user, this.ctx.now())) throw bannedAccount(user.bannedUntil);
    if (purpose === 'authenticate' && method === 'password') {
      await this.ctx.audit.signedIn(user, caller, 'password', {
        action: 'minecraft.authenticate',
        detail: { method },
      });
    } else {
      await this.ctx.audit.record('minecraft.authenticate', {
        actor: user.username,
        ip: caller.ip,
        target: user.username,
        detail: { method },
      });
    }
    return user;
  }

  /**
   * `non_email_login`: a player may type the name of their character, and that name comes
   * first. A profile name is the player's name in the game, unique on the site; were a
   * username tried first, anyone registering a username equal to someone's profile name
   * would receive that player's launcher sign-ins.
   */
  private async findAccount(login: string): Promise<User | undefined> {
    const profile = await this.ctx.storage.minecraft.profiles.findByName(login);
    if (profile) return this.ctx.storage.users.findById(profile.userId);
    return this.ctx.storage.users.findByLogin(login);
  }

  /** The password counts only for accounts without a second factor; the hash is checked either way, for even timing. */
  private async passwordOf(
    user: User | undefined,
    password: string,
  ): Promise<boolean> {
    const ok = await this.ctx.passwords.verify(user?.passwordHash, password);
    return (
      ok && user !== undefined && !(await this.secondFactor.required(user.id))
    );
  }

  /** A live game token (CONTRACT §7) of this very account. */
  private async gameTokenOf(
    user: User | undefined,
    token: string,
  ): Promise<boolean> {
    if (!user) return false;
    try {
      const auth = await this.ctx.tokens.check(`Bearer ${token}`);
      return (
        auth.claims.app === this.ctx.config.gameAppId &&
        auth.user.id === user.id
      );
    } catch {
      return false;
    }
  }
}
