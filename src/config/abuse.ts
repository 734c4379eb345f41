/**
 * The abuse-protection settings (docs/api.md §16): the CAPTCHA and who may register. Kept
 * apart from config/index.ts, which reads them through abuseSettings().
 */

export type CaptchaMode = 'off' | 'altcha';
export type RegistrationMode = 'open' | 'invite' | 'closed';

export interface AbuseSettings {
  /** CAPTCHA: `altcha` asks for a proof of work at register, send_code and repeated failed logins. */
  readonly captcha: CaptchaMode;
  /** CAPTCHA_COST: the highest number a challenge hides (ALTCHA's `maxnumber`); the mean work is half of it. */
  readonly captchaCost: number;
  readonly registration: RegistrationMode;
  /** REGISTRATION_EMAIL_DOMAINS: when not empty, only these domains (and their subdomains) may register. */
  readonly registrationEmailDomains: readonly string[];
  /** REGISTRATION_BLOCKED_DOMAINS: these domains (and their subdomains) may not register. */
  readonly registrationBlockedDomains: readonly string[];
}

export const DEFAULT_CAPTCHA_COST = 100_000;
const MIN_CAPTCHA_COST = 1_000;
const MAX_CAPTCHA_COST = 10_000_000;

function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  values: readonly T[],
  fallback: T,
  fail: (msg: string) => Error,
): T {
  const value = raw?.trim().toLowerCase() || fallback;
  const found = values.find((v) => v === value);
  if (found === undefined)
    throw fail(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return found;
}

const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A comma- or space-separated list of domains, lower-cased (ASCII), without a leading `@`. */
function domains(
  name: string,
  raw: string | undefined,
  fail: (msg: string) => Error,
): readonly string[] {
  const list = (raw ?? '')
    .split(/[\s,]+/)
    .map((d) => d.replace(/^@/, '').toLowerCase())
    .filter((d) => d !== '');
  const bad = list.find((d) => !DOMAIN.test(d));
  if (bad !== undefined)
    throw fail(`${name} must list domains such as example.com, got "${bad}"`);
  return Object.freeze(list);
}

function cost(raw: string | undefined, fail: (msg: string) => Error): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_CAPTCHA_COST;
  const n = Number(raw);
  if (
    !/^\s*\d+\s*$/.test(raw) ||
    n < MIN_CAPTCHA_COST ||
    n > MAX_CAPTCHA_COST
  ) {
    throw fail(
      `CAPTCHA_COST must be an integer from ${MIN_CAPTCHA_COST} to ${MAX_CAPTCHA_COST}, got "${raw}"`,
    );
  }
  return n;
}

export function abuseSettings(
  env: NodeJS.ProcessEnv,
  fail: (msg: string) => Error,
): AbuseSettings {
  return {
    captcha: oneOf(
      'CAPTCHA',
      env.CAPTCHA,
      ['off', 'altcha'] as const,
      'off',
      fail,
    ),
    captchaCost: cost(env.CAPTCHA_COST, fail),
    registration: oneOf(
      'REGISTRATION',
      env.REGISTRATION,
      ['open', 'invite', 'closed'] as const,
      'open',
      fail,
    ),
    registrationEmailDomains: domains(
      'REGISTRATION_EMAIL_DOMAINS',
      env.REGISTRATION_EMAIL_DOMAINS,
      fail,
    ),
    registrationBlockedDomains: domains(
      'REGISTRATION_BLOCKED_DOMAINS',
      env.REGISTRATION_BLOCKED_DOMAINS,
      fail,
    ),
  };
}
