import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

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

describe('invalid settings', () => {
  it('are refused with a message naming the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ TOKEN_TTL: '0' }, /TOKEN_TTL/],
      [{ TOKEN_TTL: '1.5' }, /TOKEN_TTL/],
      [{ IP_RATE_LIMITS: 'maybe' }, /IP_RATE_LIMITS/],
      [
        { REGISTER_REQUIRES_EMAIL_CODE: 'sure' },
        /REGISTER_REQUIRES_EMAIL_CODE/,
      ],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
      [{ DATABASE_URL: 'sqlite:' }, /DATABASE_URL/],
      [{ BASE_URL: 'not a url' }, /BASE_URL/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ SITE_NAME: '星海\n社区' }, /SITE_NAME/],
      [{ SITE_NAME: 'x'.repeat(65) }, /SITE_NAME/],
      [{ GC_FLAGS: 'heap-growing-percent=25' }, /GC_FLAGS/],
      [{ GC_FLAGS: '--expose-gc; rm -rf /' }, /GC_FLAGS/],
    ];
    for (const [env, message] of cases) {
      expect(
        () => loadConfig({ JWT_SECRET: SECRET, ...env }),
        JSON.stringify(env),
      ).toThrow(ConfigError);
      expect(
        () => loadConfig({ JWT_SECRET: SECRET, ...env }),
        JSON.stringify(env),
      ).toThrow(message);
    }
  });
});

describe('JWT_SECRET', () => {
  it('is required in production', () => {
    const dir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(
      /JWT_SECRET is required when NODE_ENV=production/,
    );
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
  });

  it('must be at least 32 bytes in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short-secret' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31) }),
    ).toThrow(/JWT_SECRET must be at least 32 bytes/);
    expect(
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).config
        .jwtSecret,
    ).toBe('x'.repeat(32));
  });

  it('warns when short outside production', () => {
    const { config, warnings } = loadConfig({ JWT_SECRET: 'short-secret' });
    expect(config.jwtSecret).toBe('short-secret');
    expect(
      warnings.some((w) => w.includes('JWT_SECRET') && w.includes('32')),
    ).toBe(true);
  });

  it('is generated once into the data folder and reused, with a warning', () => {
    const dir = join(tempDir(), 'nested');
    const first = loadConfig({ DATA_DIR: dir });
    const file = join(dir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(first.config.jwtSecret.length).toBeGreaterThanOrEqual(43);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.config.jwtSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(
      first.warnings.some((w) => w.includes('JWT_SECRET') && w.includes(file)),
    ).toBe(true);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.config.jwtSecret).toBe(first.config.jwtSecret);
    expect(
      second.warnings.some((w) => w.includes('JWT_SECRET') && w.includes(file)),
    ).toBe(true);
  });

  it('lives beside the SQLite file when DATA_DIR is not set', () => {
    const dir = tempDir();
    const { config } = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'db', 'ac.db')}`,
    });
    expect(config.dataDir).toBe(join(dir, 'db'));
    expect(readFileSync(join(dir, 'db', 'jwt-secret'), 'utf8').trim()).toBe(
      config.jwtSecret,
    );
  });

  it('reports an unwritable data folder clearly', () => {
    const dir = tempDir();
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'x');
    expect(() => loadConfig({ DATA_DIR: join(blocker, 'sub') })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATA_DIR: join(blocker, 'sub') })).toThrow(
      /JWT_SECRET is not set/,
    );
  });

  it('an explicit secret never touches the data folder', () => {
    const dir = tempDir();
    loadConfig({ JWT_SECRET: SECRET, DATA_DIR: dir });
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
  });
});

describe('warnings', () => {
  it('mention a missing SMTP_URL and plain-http BASE_URL in production', () => {
    expect(
      loadConfig({ JWT_SECRET: SECRET }).warnings.some((w) =>
        w.includes('SMTP_URL'),
      ),
    ).toBe(true);
    expect(
      loadConfig({ JWT_SECRET: SECRET, SMTP_URL: 'smtp://x' }).warnings,
    ).toEqual([]);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: SECRET,
        SMTP_URL: 'smtp://x',
      }).warnings.some((w) => w.includes('BASE_URL')),
    ).toBe(true);
  });
});
