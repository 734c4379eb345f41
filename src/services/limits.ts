import { createHash } from 'node:crypto';
import { IP_ONLY_RULES, type LimitPolicy } from '../domain/limits.js';
import { AppError, rateLimited } from '../errors/index.js';
import type { ServiceContext } from './context.js';
import type { RateLimitStore } from './rate-limit.js';

type RuleName = keyof LimitPolicy;

/**
 * Applies the rate-limit policy over a RateLimitStore (memory or Redis, shared by every
 * instance). Rules keyed only by client address are skipped when IP_RATE_LIMITS=off;
 * per-account, per-e-mail and per-client rules always apply.
 */
export class Limiter {
  constructor(private readonly store: RateLimitStore, private readonly policy: LimitPolicy, private readonly ipLimits: boolean) {}

  private applies(rule: RuleName): boolean {
    return this.ipLimits || !IP_ONLY_RULES.has(rule);
  }

  /** Keys are hashed: unbounded user input never becomes a store key verbatim. */
  private key(rule: RuleName, subject: string): string {
    return `rl:${rule}:${createHash('sha256').update(subject).digest('base64url').slice(0, 32)}`;
  }

  /** Refuses with 429 when the counter is already at its maximum; counts nothing. */
  async check(rule: RuleName, subject: string): Promise<void> {
    if (!this.applies(rule)) return;
    if ((await this.store.peek(this.key(rule, subject))) >= this.policy[rule].max) throw rateLimited();
  }

  /** Counts one hit (a failure, usually) without refusing. */
  async hit(rule: RuleName, subject: string): Promise<void> {
    if (!this.applies(rule)) return;
    await this.store.increment(this.key(rule, subject), this.policy[rule].windowS * 1000);
  }

  /** Counts one hit and refuses with 429 when it goes over the maximum. */
  async take(rule: RuleName, subject: string): Promise<void> {
    if (!this.applies(rule)) return;
    const n = await this.store.increment(this.key(rule, subject), this.policy[rule].windowS * 1000);
    if (n > this.policy[rule].max) throw rateLimited();
  }

  async reset(rule: RuleName, subject: string): Promise<void> {
    await this.store.reset(this.key(rule, subject));
  }
}

const limiters = new WeakMap<ServiceContext, Limiter>();

/** The limiter of a service context (one per context, so services share it). */
export function limiterOf(ctx: ServiceContext): Limiter {
  let l = limiters.get(ctx);
  if (!l) {
    l = new Limiter(ctx.limits, ctx.config.limits, ctx.config.ipRateLimits);
    limiters.set(ctx, l);
  }
  return l;
}

/**
 * Password sign-in throttling. The tight counter is per (account, address), so an attacker
 * on one address can lock only their own address out of that account, for one window, and a
 * success from the real owner's address clears it. The per-account ceiling is ten times
 * higher and stops counting from an address once its pair is blocked, so only an attacker
 * with many addresses can reach it. The pair counter is bumped before the (slow) password
 * check, so concurrent guesses from one address cannot overshoot it.
 */
export class LoginThrottle {
  private readonly account: string;
  private readonly pair: string;

  constructor(private readonly limiter: Limiter, login: string, userId: number | undefined, private readonly ip: string) {
    // A known account is one counter whichever name (username or e-mail) the attempt used.
    this.account = userId === undefined ? `login:${login.toLowerCase()}` : `uid:${userId}`;
    this.pair = `${this.account}\u0000${ip}`;
  }

  /** Refuses with 429 before any password work when a counter is exhausted. */
  async begin(): Promise<void> {
    await this.limiter.check('loginIp', this.ip);
    await this.limiter.check('loginAccount', this.account);
    await this.limiter.take('loginPair', this.pair);
  }

  async failed(): Promise<void> {
    await this.limiter.hit('loginAccount', this.account);
    await this.limiter.hit('loginIp', this.ip);
  }

  async succeeded(): Promise<void> {
    await this.limiter.reset('loginPair', this.pair);
  }
}

export function loginThrottle(ctx: ServiceContext, login: string, userId: number | undefined, ip: string): LoginThrottle {
  return new LoginThrottle(limiterOf(ctx), login, userId, ip);
}

/**
 * Code-exchange throttling, shaped like the sign-in one: failures (wrong secret, verifier or
 * code) count per (client, address), with a ten times higher per-client ceiling that a
 * blocked address no longer feeds, so one noisy address cannot stop a client's own back end.
 */
export async function throttledExchange<T>(ctx: ServiceContext, clientId: unknown, ip: string, run: () => Promise<T>): Promise<T> {
  if (typeof clientId !== 'string' || clientId === '') return run();
  const limiter = limiterOf(ctx);
  const pair = `${clientId}\u0000${ip}`;
  await limiter.check('exchangeIp', ip);
  await limiter.check('exchangeClient', clientId);
  await limiter.check('exchangePair', pair);
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.status !== 429) {
      await limiter.hit('exchangePair', pair);
      await limiter.hit('exchangeClient', clientId);
      await limiter.hit('exchangeIp', ip);
    }
    throw err;
  }
}
