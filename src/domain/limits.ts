/**
 * Rate-limit policy: how many hits each counter allows in its window. Pure data and
 * parsing; the counting itself lives in services/limits.ts.
 */

export interface LimitRule {
  /** Hits allowed in one window; the next one is refused with 429. */
  readonly max: number;
  readonly windowS: number;
}

export interface LimitPolicy {
  /** Failed password sign-ins for one account from one client address (reset by a success). */
  readonly loginPair: LimitRule;
  /** Failed password sign-ins for one account from all addresses: a far higher ceiling. */
  readonly loginAccount: LimitRule;
  /** Failed password sign-ins from one address, whatever the account (credential stuffing). */
  readonly loginIp: LimitRule;
  /** Codes e-mailed to one address (on top of the 60 s resend rule). */
  readonly sendCodeEmail: LimitRule;
  /** Codes requested from one client address. */
  readonly sendCodeIp: LimitRule;
  /** Accounts created from one client address. */
  readonly registerIp: LimitRule;
  /** Failed code exchanges (wrong secret, verifier or code) of one client_id from one address. */
  readonly exchangePair: LimitRule;
  /** Failed code exchanges of one client_id from all addresses: a far higher ceiling. */
  readonly exchangeClient: LimitRule;
  /** Failed code exchanges from one client address. */
  readonly exchangeIp: LimitRule;
}

/** Environment variable of each rule: `LIMIT_<NAME>=<max>/<window seconds>`, e.g. `LIMIT_LOGIN_PAIR=10/900`. */
export const LIMIT_ENV: Record<keyof LimitPolicy, string> = {
  loginPair: 'LIMIT_LOGIN_PAIR',
  loginAccount: 'LIMIT_LOGIN_ACCOUNT',
  loginIp: 'LIMIT_LOGIN_IP',
  sendCodeEmail: 'LIMIT_SEND_CODE_EMAIL',
  sendCodeIp: 'LIMIT_SEND_CODE_IP',
  registerIp: 'LIMIT_REGISTER_IP',
  exchangePair: 'LIMIT_EXCHANGE_PAIR',
  exchangeClient: 'LIMIT_EXCHANGE_CLIENT',
  exchangeIp: 'LIMIT_EXCHANGE_IP',
};

export const DEFAULT_LIMITS: LimitPolicy = {
  loginPair: { max: 10, windowS: 15 * 60 },
  loginAccount: { max: 100, windowS: 15 * 60 },
  loginIp: { max: 100, windowS: 15 * 60 },
  sendCodeEmail: { max: 10, windowS: 60 * 60 },
  sendCodeIp: { max: 30, windowS: 60 * 60 },
  registerIp: { max: 20, windowS: 60 * 60 },
  exchangePair: { max: 20, windowS: 5 * 60 },
  exchangeClient: { max: 200, windowS: 5 * 60 },
  exchangeIp: { max: 50, windowS: 5 * 60 },
};

/** Rules whose key is only the client address: these are the ones IP_RATE_LIMITS=off turns off. */
export const IP_ONLY_RULES: ReadonlySet<keyof LimitPolicy> = new Set(['loginIp', 'sendCodeIp', 'registerIp', 'exchangeIp']);

/** Parses `<max>/<seconds>`; returns an error text for anything else. */
export function parseLimitRule(raw: string): LimitRule | string {
  const m = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(raw);
  if (!m) return `expected <max>/<window seconds>, got "${raw}"`;
  const max = Number(m[1]);
  const windowS = Number(m[2]);
  if (max < 1 || windowS < 1) return `both numbers must be ≥ 1, got "${raw}"`;
  return { max, windowS };
}

/** The policy from the environment; unset variables keep their defaults. Throws on a malformed value. */
export function limitPolicyFrom(env: Record<string, string | undefined>): LimitPolicy {
  const policy: Record<string, LimitRule> = { ...DEFAULT_LIMITS };
  for (const [name, variable] of Object.entries(LIMIT_ENV)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const rule = parseLimitRule(raw);
    if (typeof rule === 'string') throw new Error(`${variable}: ${rule}`);
    policy[name] = rule;
  }
  return policy as unknown as LimitPolicy;
}
