import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

const SECRET = 'a-very-long-secret-a-very-long-secret-0123';
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ac-config-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('defaults (docs/api.md §11)', () => {
  it('match the contract', () => {
    const dir = tempDir();
    const { config } = loadConfig({ JWT_SECRET: SECRET, DATA_DIR: dir });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1:3000',
      databaseUrl: 'sqlite:./data/account-center.db',
      redisUrl: undefined,
      ipRateLimits: true,
      jwtSecret: SECRET,
      smtpUrl: undefined,
      centerAppId: 'account-center',
      gameAppId: 'game',
      authCodeTtl: 120,
      tokenTtl: 604800,
      gameTokenTtl: 2592000,
      deviceCodeTtl: 600,
      corsCacheTtl: 60,
      registerRequiresEmailCode: false,
      trustProxy: false,
      logLevel: 'info',
      dataDir: resolve(dir),
      gcFlags: [],
    });
  });

  it('derives BASE_URL from HOST and PORT and strips trailing slashes', () => {
    expect(
      loadConfig({ JWT_SECRET: SECRET, HOST: '0.0.0.0', PORT: '8080' }).config
        .baseUrl,
    ).toBe('http://0.0.0.0:8080');
    expect(
      loadConfig({ JWT_SECRET: SECRET, HOST: '::1', PORT: '8080' }).config
        .baseUrl,
    ).toBe('http://[::1]:8080');
    expect(
      loadConfig({ JWT_SECRET: SECRET, BASE_URL: 'https://id.example.com/' })
        .config.baseUrl,
    ).toBe('https://id.example.com');
  });

  it('reads every setting', () => {
    const { config } = loadConfig({
      JWT_SECRET: SECRET,
      PORT: '0',
      HOST: '::',
      DATABASE_URL: 'postgres://u:p@db/ac',
      REDIS_URL: 'redis://r:6379',
      IP_RATE_LIMITS: 'off',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'x@example.com',
      CENTER_APP_ID: 'center',
      GAME_APP_ID: 'mc',
      AUTH_CODE_TTL: '60',
      TOKEN_TTL: '3600',
      GAME_TOKEN_TTL: '7200',
      DEVICE_CODE_TTL: '300',
      CORS_CACHE_TTL: '10',
      REGISTER_REQUIRES_EMAIL_CODE: 'true',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      GC_FLAGS: ' --heap-growing-percent=50  --max-semi-space-size=32 ',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '::',
      databaseUrl: 'postgres://u:p@db/ac',
      redisUrl: 'redis://r:6379',
      ipRateLimits: false,
      smtpUrl: 'smtp://mail:25',
      mailFrom: '"账号中心" <x@example.com>',
      centerAppId: 'center',
      gameAppId: 'mc',
      authCodeTtl: 60,
      tokenTtl: 3600,
      gameTokenTtl: 7200,
      deviceCodeTtl: 300,
      corsCacheTtl: 10,
      registerRequiresEmailCode: true,
      trustProxy: 1,
      logLevel: 'warn',
      dataDir: resolve('./data'),
      gcFlags: ['--heap-growing-percent=50', '--max-semi-space-size=32'],
    });
    expect(loadConfig({ JWT_SECRET: SECRET }).config.mailFrom).toBe(
      '"账号中心" <no-reply@localhost>',
    );
    expect(
      loadConfig({ JWT_SECRET: SECRET, SITE_NAME: 'Star "Sea"' }).config
        .mailFrom,
    ).toBe('"Star \\"Sea\\"" <no-reply@localhost>');
    expect(
      loadConfig({ JWT_SECRET: SECRET, MAIL_FROM: 'Accounts <a@example.com>' })
        .config.mailFrom,
    ).toBe('Accounts <a@example.com>');
    expect(
      loadConfig({ JWT_SECRET: SECRET, GC_FLAGS: 'none' }).config.gcFlags,
    ).toEqual([]);
    expect(
      loadConfig({ JWT_SECRET: SECRET, TRUST_PROXY: 'true' }).config.trustProxy,
    ).toBe(true);
    expect(
      loadConfig({ JWT_SECRET: SECRET, TRUST_PROXY: '10.0.0.0/8' }).config
        .trustProxy,
    ).toBe('10.0.0.0/8');
    expect(
      loadConfig({ JWT_SECRET: SECRET, CORS_CACHE_TTL: '600' }).config
        .corsCacheTtl,
    ).toBe(60);
  });

  it('is frozen', () => {
    const { config } = loadConfig({ JWT_SECRET: SECRET });
    expect(Object.isFrozen(config)).toBe(true);
  });
});

describe('the CAPTCHA cost (docs/abuse.md)', () => {
  it('defaults to 100000: about half a second on average for one phone-class core, a second at worst', () => {
    const { config } = loadConfig({ JWT_SECRET: SECRET, DATA_DIR: tempDir() });
    expect(config.captchaCost).toBe(100_000);
  });
});

describe('SITE_NAME', () => {
  it('defaults to 账号中心 and is read trimmed', () => {
    expect(
      loadConfig({ JWT_SECRET: SECRET, DATABASE_URL: 'sqlite::memory:' }).config
        .siteName,
    ).toBe('账号中心');
    expect(
      loadConfig({
        JWT_SECRET: SECRET,
        DATABASE_URL: 'sqlite::memory:',
        SITE_NAME: ' 星海社区 ',
      }).config.siteName,
    ).toBe('星海社区');
  });
});
