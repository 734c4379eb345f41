import { hash } from 'node:crypto';
import {
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { IP_ONLY_RULES, type LimitPolicy } from './policy.js';
import { AppError, rateLimited, type Reason } from '../../errors/index.js';
import type { RateCounters } from '../../platform/rate-limit/counters.js';

export type LimitRuleName = keyof LimitPolicy;

/** One try, counted on one rule. */
export interface CountedTry {
  /** True when the try is within the rule; false when it is over it (it was counted all the same). */
  readonly within: boolean;
  /** Returns the try: it turned out not to count against the rule (a success, a known code). */
  giveBack(): Promise<void>;
  /** The 429 for this try, saying when the window that refused it frees. */
  refusal(extra?: Record<string, string>): AppError;
}

/** A rule that is off (IP_RATE_LIMITS=off): always within, so its refusal is never asked for. */
const UNCOUNTED: CountedTry = {
  within: true,
  giveBack: async () => undefined,
  refusal: (extra) => rateLimited(1, extra),
};

/**
 * Applies the rate-limit policy over the counters (memory, the cluster primary, or Redis,
 * shared by every instance), one rate-limiter-flexible limiter per rule. Every try is counted
 * before it is judged, in one atomic consume, so N parallel tries never get more than `max`
 * through: there is no read, compare, then write. A try that turns out not to count is given
 * back. Rules keyed only by client address are skipped when IP_RATE_LIMITS=off; per-account,
 * per-e-mail, per-user and per-client rules always apply.
 */
export class RateLimiter {
  private readonly counters = new Map<LimitRuleName, RateLimiterAbstract>();

  constructor(
    counters: RateCounters,
    private readonly policy: LimitPolicy,
    ipLimits: boolean,
  ) {
    for (const rule of Object.keys(policy) as LimitRuleName[]) {
      if (ipLimits || !IP_ONLY_RULES.has(rule))
        this.counters.set(
          rule,
          counters.counter({ name: rule, ...policy[rule] }),
        );
    }
  }

  /** Counts one try on `rule`; its answer says whether it is within, and can give it back. */
  async take(rule: LimitRuleName, subject: string): Promise<CountedTry> {
    const counter = this.counters.get(rule);
    if (!counter) return UNCOUNTED;
    const key = keyOf(subject);
    let within = true;
    let count: RateLimiterRes;
    try {
      count = await counter.consume(key);
    } catch (over) {
      // Over the rule the limiter rejects with the count (the try is in it); anything else is a fault.
      if (!(over instanceof RateLimiterRes)) throw over;
      count = over;
      within = false;
    }
    const windowEnds = Date.now() + count.msBeforeNext;
    const windowS = this.policy[rule].windowS;
    return {
      within,
      giveBack: () => giveBackOne(counter, key),
      // A window that ended since the count: the whole window is the safe answer.
      refusal: (extra) =>
        rateLimited(
          windowEnds > Date.now() ? (windowEnds - Date.now()) / 1000 : windowS,
          extra,
        ),
    };
  }

  /** Counts one try and refuses it with 429 when it is over the rule. */
  async takeOrRefuse(rule: LimitRuleName, subject: string): Promise<void> {
    const taken = await this.take(rule, subject);
    if (!taken.within) throw taken.refusal();
  }

  /** Returns a try counted by take() that turned out not to count against the rule. */
  async giveBack(rule: LimitRuleName, subject: string): Promise<void> {
    const counter = this.counters.get(rule);
    if (counter) await giveBackOne(counter, keyOf(subject));
  }

  /** The tries counted on `rule` for `subject` in its current window, without counting one (0 when the rule is off). */
  async peek(rule: LimitRuleName, subject: string): Promise<number> {
    const counted = await this.counters.get(rule)?.get(keyOf(subject));
    return Math.max(0, counted?.consumedPoints ?? 0);
  }

  async reset(rule: LimitRuleName, subject: string): Promise<void> {
    await this.counters.get(rule)?.delete(keyOf(subject));
  }
}

/** Keys are hashed: unbounded user input never becomes a store key verbatim. */
function keyOf(subject: string): string {
  return hash('sha256', subject, 'base64url').slice(0, 32);
}

async function giveBackOne(
  counter: RateLimiterAbstract,
  key: string,
): Promise<void> {
  const after = await counter.reward(key);
  // Its window ended or was reset since the try: a count below zero would let extra tries
  // into the next window, so this return undoes itself (only itself, should others race it).
  if (after.consumedPoints < 0) await counter.penalty(key);
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
    private readonly limiter: RateLimiter,
    loginKey: string,
    userId: number | undefined,
    private readonly ip: string,
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

  /**
   * Tries not (yet) given back from this address or on this account, whichever is more:
   * failures, plus tries still running. Read without counting, from the same counters.
   */
  async failedTries(): Promise<number> {
    const [fromIp, onAccount] = await Promise.all([
      this.limiter.peek(this.rules.ip, this.ip),
      this.limiter.peek(this.rules.account, this.account),
    ]);
    return Math.max(fromIp, onAccount);
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

const PASSWORD_RULES: ThrottleRules = {
  pair: 'loginPair',
  ip: 'loginIp',
  account: 'loginAccount',
};
/** Second-factor codes: counted like passwords, on rules of their own. */
export const OTP_RULES: ThrottleRules = {
  pair: 'otpPair',
  ip: 'otpIp',
  account: 'otpAccount',
};

/** Exchange failures that only a holder of the real code (and secret) can reach: no guess to slow down. */
const HELD_THE_REAL_CODE: ReadonlySet<Reason> = new Set<Reason>([
  'codeUsed',
  'codeExpired',
  'banned',
]);

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

/** The v1 API's exchange: replays, expired codes and banned users need the real code. */
function v1ExchangeFailure(err: unknown): ExchangeFailure {
  if (!(err instanceof AppError)) return 'fault';
  return HELD_THE_REAL_CODE.has(err.reason) ? 'held' : 'guess';
}

export async function throttledExchange<T>(
  limiter: RateLimiter,
  clientId: unknown,
  ip: string,
  run: () => Promise<T>,
  judge: (err: unknown) => ExchangeFailure = v1ExchangeFailure,
): Promise<T> {
  if (typeof clientId !== 'string' || clientId === '') return run();
  // In this order, stopping at the first exhausted rule: an address blocked on its pair no
  // longer feeds the client's ceiling.
  const rules: Array<[LimitRuleName, string]> = [
    ['exchangePair', `${clientId}\u0000${ip}`],
    ['exchangeClient', clientId],
    ['exchangeIp', ip],
  ];
  const counted: CountedTry[] = [];
  let exhausted: CountedTry | undefined;
  for (const [rule, subject] of rules) {
    const taken = await limiter.take(rule, subject);
    counted.push(taken);
    if (!taken.within) {
      exhausted = taken;
      break;
    }
  }
  const giveBack = () => Promise.all(counted.map((taken) => taken.giveBack()));
  let result: T;
  try {
    result = await run();
  } catch (err) {
    const failure = judge(err);
    if (failure === 'held') await giveBack();
    else if (failure === 'guess' && exhausted) throw exhausted.refusal();
    throw err;
  }
  await giveBack();
  return result;
}
