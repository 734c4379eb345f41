// Parsers of single settings, each naming its variable in the error it throws.
import {
  limitPolicyFrom,
  type LimitPolicy,
} from '../features/limits/policy.js';
import type { Language } from '../platform/i18n/language.js';

/** How a bad setting stops the start: one line naming the variable and what it accepts. */
export class ConfigError extends Error {}

export function int(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(
      `${name} must be an integer from ${min} to ${max}, got "${raw}"`,
    );
  }
  return n;
}

const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

export function logLevel(raw: string | undefined): string {
  const level = raw?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(level))
    throw new ConfigError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`,
    );
  return level;
}

export function redisPrefix(raw: string | undefined): string {
  const prefix = raw?.trim() || 'account-center';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix))
    throw new ConfigError(
      `REDIS_PREFIX must be 1–64 of A-Z a-z 0-9 _ . : -, got "${raw}"`,
    );
  return prefix;
}

const V8_FLAG = /^--[a-z][a-z0-9_-]*(=[A-Za-z0-9._+-]+)?$/;

export function gcFlags(raw: string | undefined): readonly string[] {
  const text = raw?.trim();
  // Unset, V8 keeps Node's own settings; an operator may opt in to flags of their choice.
  if (!text || text.toLowerCase() === 'none') return Object.freeze([]);
  const flags = text.split(/\s+/);
  if (!flags.every((flag) => V8_FLAG.test(flag))) {
    throw new ConfigError(
      `GC_FLAGS must be V8 flags separated by spaces (such as --heap-growing-percent=25) or none, got "${raw}"`,
    );
  }
  return Object.freeze(flags);
}

/** Shown in titles and mail subjects: one short line, no control characters. */
export function siteName(raw: string | undefined): string {
  const name = raw?.trim() || '账号中心';
  if (name.length > 64 || /[\u0000-\u001f\u007f]/.test(name))
    throw new ConfigError(
      `SITE_NAME must be one line of at most 64 characters, got "${raw}"`,
    );
  return name;
}

export function siteNames(
  raw: string | undefined,
): Readonly<Record<Language, string>> {
  const name = siteName(raw);
  return Object.freeze(
    raw?.trim()
      ? { 'zh-CN': name, en: name }
      : { 'zh-CN': name, en: 'Account Center' },
  );
}

/**
 * The sender of e-mails. A bare address (or none) is shown under SITE_NAME, so a reader sees
 * the center's name in the inbox; a MAIL_FROM that has a display name of its own keeps it.
 */
export function mailFrom(raw: string | undefined, site: string): string {
  const address = raw?.trim() || 'no-reply@localhost';
  if (address.includes('<')) return address;
  // A quoted string: a name with a comma or a dot stays one display name.
  return `"${site.replace(/["\\]/g, '\\$&')}" <${address}>`;
}

/** An absolute http(s) address without a trailing slash, or the listen address. */
export function baseUrl(raw: string | undefined, fallback: string): string {
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `BASE_URL must be an absolute http(s) URL, got "${raw}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(
      `BASE_URL must be an absolute http(s) URL, got "${raw}"`,
    );
  return raw.replace(/\/+$/, '');
}

export function bool(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: boolean,
): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(
    `${name} must be on/off (or true/false), got "${env[name]}"`,
  );
}

export function limits(env: NodeJS.ProcessEnv): LimitPolicy {
  try {
    return limitPolicyFrom(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
