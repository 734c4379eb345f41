import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { LimitPolicy } from '../features/limits/policy.js';
import { abuseSettings, type AbuseSettings } from './abuse.js';
import {
  ConfigError,
  baseUrl,
  bool,
  gcFlags,
  int,
  limits,
  logLevel,
  mailFrom,
  redisPrefix,
  siteName,
  siteNames,
} from './parse.js';
import type { Language } from '../platform/i18n/language.js';

/** Every setting of docs/api.md §11 plus the lifetimes of §4, read once at start-up. */
export interface Config extends AbuseSettings {
  readonly nodeEnv: string;
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly databaseUrl: string;
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  /** REDIS_PREFIX: names this deployment's keys and change channel, so several can share one Redis. */
  readonly redisPrefix: string;
  readonly ipRateLimits: boolean;
  /** Rate-limit rules, `LIMIT_<NAME>=<max>/<seconds>` (docs/security.md). */
  readonly limits: LimitPolicy;
  readonly jwtSecret: string;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** SITE_NAME: what pages, e-mails and the device/consent pages call the center itself. */
  readonly siteName: string;
  /**
   * The center's name in each language of the pages, e-mails and session lists: SITE_NAME as
   * set in all of them, else 账号中心 in Chinese and Account Center in English.
   */
  readonly siteNames: Readonly<Record<Language, string>>;
  readonly centerAppId: string;
  readonly gameAppId: string;
  readonly authCodeTtl: number;
  readonly tokenTtl: number;
  readonly gameTokenTtl: number;
  readonly deviceCodeTtl: number;
  readonly corsCacheTtl: number;
  readonly registerRequiresEmailCode: boolean;
  /** Fastify `trustProxy`: false, true, a hop count or a list of addresses/CIDRs. */
  readonly trustProxy: boolean | number | string;
  readonly logLevel: string;
  /** LOG_FORMAT: `json` lines (default) or `pretty` for a terminal. */
  readonly logFormat: 'json' | 'pretty';
  /** OpenID Connect (docs/api.md §12): signing algorithm of new keys and token lifetimes in seconds. */
  readonly oidcSigningAlg: OidcSigningAlg;
  readonly accessTokenTtl: number;
  readonly idTokenTtl: number;
  readonly refreshTokenTtl: number;
  /** MINECRAFT=on: the Yggdrasil API, profiles and textures (docs/api.md §18); off by default. */
  readonly minecraft: boolean;
  /** MINECRAFT_MAX_PROFILES: how many Minecraft profiles one account may own. */
  readonly minecraftMaxProfiles: number;
  /** GC_FLAGS: V8 garbage-collection flags `serve` sets at start; none by default or with `none`. */
  readonly gcFlags: readonly string[];
  /** WEBHOOK_ALLOW_PRIVATE=on: deliver to loopback, private and link-local addresses too (docs/api.md §15.2). */
  readonly webhookAllowPrivate: boolean;
}

export const OIDC_SIGNING_ALGS = ['RS256', 'ES256', 'EdDSA'] as const;
export type OidcSigningAlg = (typeof OIDC_SIGNING_ALGS)[number];

function signingAlg(raw: string | undefined): OidcSigningAlg {
  if (raw === undefined || raw === '') return 'RS256';
  const alg = OIDC_SIGNING_ALGS.find(
    (a) => a.toLowerCase() === raw.trim().toLowerCase(),
  );
  if (!alg)
    throw new ConfigError(
      `OIDC_SIGNING_ALG must be one of ${OIDC_SIGNING_ALGS.join(', ')}, got "${raw}"`,
    );
  return alg;
}

export { ConfigError };

export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

const DEFAULT_DB = 'sqlite:./data/account-center.db';

function logFormat(raw: string | undefined): Config['logFormat'] {
  const format = raw?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'pretty')
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
  return format;
}

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false' || raw === 'off')
    return false;
  if (raw === 'true' || raw === 'on') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** The folder that holds the SQLite file and the generated secret. */
function dataDirFor(databaseUrl: string, env: NodeJS.ProcessEnv): string {
  if (env.DATA_DIR) return resolve(env.DATA_DIR);
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path !== ':memory:') return resolve(dirname(path));
  }
  return resolve('./data');
}

/**
 * With no JWT_SECRET, a secret is generated once and kept in the data folder so tokens
 * survive restarts; production refuses that because other instances would not share it.
 */
function jwtSecret(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  production: boolean,
  warnings: string[],
): string {
  const given = env.JWT_SECRET;
  if (given !== undefined && given !== '') {
    if (Buffer.byteLength(given) < 32) {
      if (production)
        throw new ConfigError(
          'JWT_SECRET must be at least 32 bytes when NODE_ENV=production',
        );
      warnings.push(
        'JWT_SECRET is shorter than 32 bytes: tokens can be forged by brute force',
      );
    }
    return given;
  }
  if (production) {
    throw new ConfigError(
      'JWT_SECRET is required when NODE_ENV=production (at least 32 bytes, e.g. `openssl rand -base64 48`)',
    );
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) {
      warnings.push(
        `JWT_SECRET is not set: using the one generated in ${file}; set JWT_SECRET to share it between instances`,
      );
      return stored;
    }
  }
  const secret = randomBytes(48).toString('base64url');
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  } catch (err) {
    throw new ConfigError(
      `JWT_SECRET is not set and ${file} can not be written (${(err as Error).message}); set JWT_SECRET or DATA_DIR`,
    );
  }
  warnings.push(
    `JWT_SECRET is not set: generated one into ${file}; set JWT_SECRET to share it between instances`,
  );
  return secret;
}

/**
 * The service's own parameters of a postgres:// URL (storage/sql parsePostgresUrl reads them),
 * judged here so that a bad one stops `serve` before anything is loaded.
 */
function postgresParameters(databaseUrl: string): void {
  const params = new URL(databaseUrl).searchParams;
  const malformed = (what: string) =>
    new ConfigError(
      `DATABASE_URL is malformed (${what}): use sqlite:PATH or postgres://user:password@host:5432/database`,
    );
  const poolMax = params.get('pool_max');
  if (poolMax && !(Number.isInteger(Number(poolMax)) && Number(poolMax) >= 1))
    throw malformed(`invalid pool_max in DATABASE_URL: ${poolMax}`);
  const schema = params.get('schema');
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw malformed(`invalid PostgreSQL schema name: ${schema}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const warnings: string[] = [];
  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || DEFAULT_DB;
  if (
    databaseUrl === 'sqlite:' ||
    (!databaseUrl.startsWith('sqlite:') &&
      !/^postgres(ql)?:\/\//.test(databaseUrl))
  ) {
    throw new ConfigError(
      `DATABASE_URL must be sqlite:PATH or postgres://…, got "${databaseUrl}"`,
    );
  }
  if (!databaseUrl.startsWith('sqlite:') && !URL.canParse(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL is not a valid URL: use postgres://user:password@host:5432/database (percent-encode special characters)',
    );
  }
  if (!databaseUrl.startsWith('sqlite:')) postgresParameters(databaseUrl);
  const dataDir = dataDirFor(databaseUrl, env);
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const config: Config = {
    nodeEnv,
    port,
    host,
    baseUrl: baseUrl(env.BASE_URL, `http://${hostForUrl}:${port}`),
    databaseUrl,
    dataDir,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: redisPrefix(env.REDIS_PREFIX),
    ipRateLimits: bool(env, 'IP_RATE_LIMITS', true),
    limits: limits(env),
    jwtSecret: jwtSecret(env, dataDir, production, warnings),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: mailFrom(env.MAIL_FROM, siteName(env.SITE_NAME)),
    siteName: siteName(env.SITE_NAME),
    siteNames: siteNames(env.SITE_NAME),
    centerAppId: env.CENTER_APP_ID || 'account-center',
    gameAppId: env.GAME_APP_ID || 'game',
    authCodeTtl: int(env, 'AUTH_CODE_TTL', 120),
    tokenTtl: int(env, 'TOKEN_TTL', 604800),
    gameTokenTtl: int(env, 'GAME_TOKEN_TTL', 2592000),
    deviceCodeTtl: int(env, 'DEVICE_CODE_TTL', 600),
    corsCacheTtl: Math.min(int(env, 'CORS_CACHE_TTL', 60, 0), 60),
    registerRequiresEmailCode: bool(env, 'REGISTER_REQUIRES_EMAIL_CODE', false),
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: logLevel(env.LOG_LEVEL),
    logFormat: logFormat(env.LOG_FORMAT),
    oidcSigningAlg: signingAlg(env.OIDC_SIGNING_ALG),
    accessTokenTtl: int(env, 'ACCESS_TOKEN_TTL', 3600),
    idTokenTtl: int(env, 'ID_TOKEN_TTL', 3600),
    refreshTokenTtl: int(env, 'REFRESH_TOKEN_TTL', 2592000),
    gcFlags: gcFlags(env.GC_FLAGS),
    minecraft: bool(env, 'MINECRAFT', false),
    minecraftMaxProfiles: int(env, 'MINECRAFT_MAX_PROFILES', 1, 1, 100),
    ...abuseSettings(env, (msg) => new ConfigError(msg)),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
  };
  if (!config.smtpUrl)
    warnings.push(
      'SMTP_URL is not set: e-mails (with their codes) are written to the log',
    );
  if (production && config.baseUrl.startsWith('http://'))
    warnings.push(
      'BASE_URL is plain http in production: serve it behind HTTPS',
    );
  return { config: Object.freeze(config), warnings };
}
