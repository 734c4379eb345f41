import { hash } from 'node:crypto';
import { IP_ONLY_RULES, type LimitPolicy } from './policy.js';
import { AppError, rateLimited, type Reason } from '../../errors/index.js';
import type { RateLimitStore } from '../../platform/rate-limit/stores.js';

export type LimitRuleName = keyof LimitPolicy;

const NOTHING_TO_GIVE_BACK = async (): Promise<void> => undefined;

/**
 * Applies the rate-limit policy over a RateLimitStore (memory, the cluster primary, or Redis,
 * shared by every instance). Every try is counted before it is judged, in one atomic
 * increment, so N parallel tries never get more than `max` through: there is no read, compare,
 * then write. A try that turns out not to count (a success, a known code) is given back.
 * Rules keyed only by client address are skipped when IP_RATE_LIMITS=off; per-account,
 * per-e-mail, per-user and per-client rules always apply.
 */
export class RateLimiter {
  constructor(private readonly store: RateLimitStore, private readonly policy: LimitPolicy, private readonly ipLimits: boolean) {}

  private applies(rule: LimitRuleName): boolean {
    return this.ipLimits || !IP_ONLY_RULES.has(rule);
  }

  /** Keys are hashed: unbounded user input never becomes a store key verbatim. */
  private key(rule: LimitRuleName, subject: string): string {
    return `rl:${rule}:${hash('sha256', subject, 'base64url').slice(0, 32)}`;
  }

  /** Counts one try; true when it is within the rule, false when it is over. */
  async take(rule: LimitRuleName, subject: string): Promise<boolean> {
    return (await this.takeReturnable(rule, subject)).within;
  }

  /** Counts one try and refuses it with 429 when it is over the rule. */
  async takeOrRefuse(rule: LimitRuleName, subject: string): Promise<void> {
    if (!(await this.take(rule, subject))) throw await this.refusal(rule, subject);
  }

  /**
   * The 429 for a try over `rule`, saying when its window ends. Only read after the try was
   * counted and refused: the wait is told, never used to decide.
   */
  async refusal(rule: LimitRuleName, subject: string, extra?: Record<string, string>): Promise<AppError> {
    const msLeft = this.applies(rule) ? await this.store.msLeft(this.key(rule, subject)) : 0;
    // A window that ended between the count and this read: the whole window is the safe answer.
    return rateLimited(msLeft > 0 ? msLeft / 1000 : this.policy[rule].windowS, extra);
  }

  /**
   * Counts one try; `giveBack` returns it. The key is hashed once for both, which
   * matters where every request is counted on several rules (the code exchange).
   */
  async takeReturnable(rule: LimitRuleName, subject: string): Promise<{ within: boolean; giveBack: () => Promise<void> }> {
    if (!this.applies(rule)) return { within: true, giveBack: NOTHING_TO_GIVE_BACK };
    const key = this.key(rule, subject);
    const n = await this.store.increment(key, this.policy[rule].windowS * 1000);
    return { within: n <= this.policy[rule].max, giveBack: () => this.store.decrement(key) };
  }

  /** Returns a try counted by take() that turned out not to count against the rule. */
  async giveBack(rule: LimitRuleName, subject: string): Promise<void> {
    if (!this.applies(rule)) return;
    await this.store.decrement(this.key(rule, subject));
  }

  async reset(rule: LimitRuleName, subject: string): Promise<void> {
    await this.store.reset(this.key(rule, subject));
  }
}

/**
 * Password sign-in throttling. Every try is counted before the (slow) password hash: the
 * tight counter per (account, address), then the address, then the account. The account
 * ceiling is ten times higher and is not fed by an address already blocked on the pair, so
 * only an attacker with many addresses can reach it. A success gives its try back and clears
 * the pair, so the owner's own sign-ins never use up a limit.
 */
export class LoginThrottle {
  private readonly account: string;
  private readonly pair: string;

  /**
   * `loginKey` is the name as typed, folded (ASCII) by the caller; a known account uses its id.
   * `rules` are the pair, address and account rules: the password ones, or the second factor's.
   */
  constructor(
    private readonly limiter: RateLimiter, loginKey: string, userId: number | undefined, private readonly ip: string,
    private readonly rules: ThrottleRules = PASSWORD_RULES,
  ) {
    // A known account is one counter whichever name (username or e-mail) the attempt used.
    this.account = userId === undefined ? `login:${loginKey}` : `uid:${userId}`;
    this.pair = `${this.account}\u0000${ip}`;
  }

  /** Counts this try on every counter; 429 before any password work when one is exhausted. */
  async begin(): Promise<void> {
    await this.limiter.takeOrRefuse(this.rules.pair, this.pair);
    await this.limiter.takeOrRefuse(this.rules.ip, this.ip);
    await this.limiter.takeOrRefuse(this.rules.account, this.account);
  }

  /** The try was the owner's: it does not count against the address or the account. */
  async succeeded(): Promise<void> {
    await this.limiter.reset(this.rules.pair, this.pair);
    await this.limiter.giveBack(this.rules.ip, this.ip);
    await this.limiter.giveBack(this.rules.account, this.account);
  }
}

export interface ThrottleRules {
  readonly pair: LimitRuleName;
  readonly ip: LimitRuleName;
  readonly account: LimitRuleName;
}

const PASSWORD_RULES: ThrottleRules = { pair: 'loginPair', ip: 'loginIp', account: 'loginAccount' };
/** Second-factor codes: counted like passwords, on rules of their own. */
export const OTP_RULES: ThrottleRules = { pair: 'otpPair', ip: 'otpIp', account: 'otpAccount' };

/** Exchange failures that only a holder of the real code (and secret) can reach: no guess to slow down. */
const HELD_THE_REAL_CODE: ReadonlySet<Reason> = new Set<Reason>(['codeUsed', 'codeExpired', 'banned']);

/**
 * Code-exchange throttling. Codes and secrets carry at least 128 bits, so nothing is there to
 * guess; the limit only stops a flood of failures from getting detailed answers. Each
 * exchange is counted first on (client, address), client and address; it is then run in
 * full, and a success (or a failure that needed the real code, such as a replay) gives its
 * try back. Only a failure over a rule is answered 429: a valid code with the valid secret or
 * verifier is never refused because of earlier failures (docs/api.md §5).
 */
/** How a failed exchange counts: a guess (counted), a failure only the real holder reaches, or a fault. */
export type ExchangeFailure = 'guess' | 'held' | 'fault';

/** The seed's exchange: replays, expired codes and banned users need the real code. */
function seedFailure(err: unknown): ExchangeFailure {
  if (!(err instanceof AppError)) return 'fault';
  return HELD_THE_REAL_CODE.has(err.reason) ? 'held' : 'guess';
}

export async function throttledExchange<T>(
  limiter: RateLimiter, clientId: unknown, ip: string, run: () => Promise<T>, judge: (err: unknown) => ExchangeFailure = seedFailure,
): Promise<T> {
  if (typeof clientId !== 'string' || clientId === '') return run();
  // In this order, stopping at the first exhausted rule: an address blocked on its pair no
  // longer feeds the client's ceiling.
  const rules: Array<[LimitRuleName, string]> = [['exchangePair', `${clientId}\u0000${ip}`], ['exchangeClient', clientId], ['exchangeIp', ip]];
  const counted: Array<() => Promise<void>> = [];
  let exhausted: [LimitRuleName, string] | undefined;
  for (const [rule, subject] of rules) {
    const taken = await limiter.takeReturnable(rule, subject);
    counted.push(taken.giveBack);
    if (!taken.within) {
      exhausted = [rule, subject];
      break;
    }
  }
  const giveBack = () => Promise.all(counted.map((giveBackOne) => giveBackOne()));
  let result: T;
  try {
    result = await run();
  } catch (err) {
    const failure = judge(err);
    if (failure === 'held') await giveBack();
    else if (failure === 'guess' && exhausted) throw await limiter.refusal(...exhausted);
    throw err;
  }
  await giveBack();
  return result;
}
