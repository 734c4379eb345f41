/**
 * Rate-limit policy: how many tries each counter allows in its window. Pure data and
 * parsing; the counting itself lives in features/limits/rate-limiter.ts, which counts every try before
 * it decides, so parallel tries never get past a rule.
 */

export interface LimitRule {
  /** Tries allowed in one window; the next one is refused with 429. */
  readonly max: number;
  readonly windowS: number;
}

export interface LimitPolicy {
  /** Password sign-ins for one account from one client address (a success resets it). */
  readonly loginPair: LimitRule;
  /** Failed password sign-ins for one account from all addresses: a far higher ceiling. */
  readonly loginAccount: LimitRule;
  /** Failed password sign-ins from one address, whatever the account (credential stuffing). */
  readonly loginIp: LimitRule;
  /** Codes sent to one e-mail address in a row: one per minute (docs/api.md §2). */
  readonly sendCodeResend: LimitRule;
  /** Codes e-mailed to one address (on top of the resend rule). */
  readonly sendCodeEmail: LimitRule;
  /** Codes requested from one client address. */
  readonly sendCodeIp: LimitRule;
  /** Accounts created from one client address. */
  readonly registerIp: LimitRule;
  /**
   * Failed code exchanges (wrong secret, verifier or code) of one client_id from one address
   * answered in detail; further failures are answered 429. A valid code with the valid
   * secret or verifier is never refused (docs/api.md §5): the secrets are too long to guess.
   */
  readonly exchangePair: LimitRule;
  /** Failed code exchanges of one client_id from all addresses, as above: a far higher ceiling. */
  readonly exchangeClient: LimitRule;
  /** Failed code exchanges from one client address, as above. */
  readonly exchangeIp: LimitRule;
  /** Device logins started from one client address: each holds a user code for its lifetime. */
  readonly deviceStartIp: LimitRule;
  /** Wrong user codes one signed-in user may submit to approve or inspect (docs/api.md §7). */
  readonly deviceApproveWrong: LimitRule;
  /** Polls with an unknown or purged device code from one client address. */
  readonly devicePollUnknownIp: LimitRule;
  /** Second-factor codes (authenticator or recovery) for one account from one address. */
  readonly otpPair: LimitRule;
  /** Second-factor codes for one account from all addresses: a higher ceiling. */
  readonly otpAccount: LimitRule;
  /** Second-factor codes from one client address, whatever the account. */
  readonly otpIp: LimitRule;
  /** Current-password checks of one signed-in user (change password, delete account); a right one gives its try back. */
  readonly accountPassword: LimitRule;
  /** Change-of-e-mail codes one signed-in user may have sent (on top of the per-address send rules). */
  readonly emailChangeUser: LimitRule;
  /**
   * Returns from other accounts' providers (`/login/{id}/callback`) from one client address,
   * counted like sign-ins but on a counter of their own, so a provider's failures never lock
   * anyone out of password sign-in (docs/api.md §14.5).
   */
  readonly upstreamIp: LimitRule;
  /** Skins and capes one account may upload (account page and launchers alike): each is stored until replaced. */
  readonly textureUpload: LimitRule;
}

/** Environment variable of each rule: `LIMIT_<NAME>=<max>/<window seconds>`, e.g. `LIMIT_LOGIN_PAIR=10/900`. */
export const LIMIT_ENV: Record<keyof LimitPolicy, string> = {
  loginPair: 'LIMIT_LOGIN_PAIR',
  loginAccount: 'LIMIT_LOGIN_ACCOUNT',
  loginIp: 'LIMIT_LOGIN_IP',
  sendCodeResend: 'LIMIT_SEND_CODE_RESEND',
  sendCodeEmail: 'LIMIT_SEND_CODE_EMAIL',
  sendCodeIp: 'LIMIT_SEND_CODE_IP',
  registerIp: 'LIMIT_REGISTER_IP',
  exchangePair: 'LIMIT_EXCHANGE_PAIR',
  exchangeClient: 'LIMIT_EXCHANGE_CLIENT',
  exchangeIp: 'LIMIT_EXCHANGE_IP',
  deviceStartIp: 'LIMIT_DEVICE_START_IP',
  deviceApproveWrong: 'LIMIT_DEVICE_APPROVE_WRONG',
  devicePollUnknownIp: 'LIMIT_DEVICE_POLL_UNKNOWN_IP',
  otpPair: 'LIMIT_OTP_PAIR',
  otpAccount: 'LIMIT_OTP_ACCOUNT',
  otpIp: 'LIMIT_OTP_IP',
  accountPassword: 'LIMIT_ACCOUNT_PASSWORD',
  emailChangeUser: 'LIMIT_EMAIL_CHANGE_USER',
  upstreamIp: 'LIMIT_UPSTREAM_IP',
  textureUpload: 'LIMIT_TEXTURE_UPLOAD',
};

export const DEFAULT_LIMITS: LimitPolicy = {
  loginPair: { max: 10, windowS: 15 * 60 },
  loginAccount: { max: 100, windowS: 15 * 60 },
  loginIp: { max: 100, windowS: 15 * 60 },
  sendCodeResend: { max: 1, windowS: 60 },
  sendCodeEmail: { max: 10, windowS: 60 * 60 },
  sendCodeIp: { max: 30, windowS: 60 * 60 },
  registerIp: { max: 20, windowS: 60 * 60 },
  exchangePair: { max: 20, windowS: 5 * 60 },
  exchangeClient: { max: 200, windowS: 5 * 60 },
  exchangeIp: { max: 50, windowS: 5 * 60 },
  deviceStartIp: { max: 30, windowS: 60 },
  deviceApproveWrong: { max: 10, windowS: 10 * 60 },
  devicePollUnknownIp: { max: 30, windowS: 5 * 60 },
  // A six-digit code is guessed one in a million per try (three with the ±1 step window).
  otpPair: { max: 5, windowS: 15 * 60 },
  otpAccount: { max: 20, windowS: 15 * 60 },
  otpIp: { max: 50, windowS: 15 * 60 },
  accountPassword: { max: 10, windowS: 15 * 60 },
  emailChangeUser: { max: 5, windowS: 60 * 60 },
  upstreamIp: { max: 100, windowS: 15 * 60 },
  textureUpload: { max: 20, windowS: 60 * 60 },
};

/** Rules whose key is only the client address: these are the ones IP_RATE_LIMITS=off turns off. */
export const IP_ONLY_RULES: ReadonlySet<keyof LimitPolicy> = new Set([
  'loginIp',
  'sendCodeIp',
  'registerIp',
  'exchangeIp',
  'deviceStartIp',
  'devicePollUnknownIp',
  'otpIp',
  'upstreamIp',
]);

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
export function limitPolicyFrom(
  env: Record<string, string | undefined>,
): LimitPolicy {
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
