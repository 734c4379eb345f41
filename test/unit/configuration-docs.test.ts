import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

/** The variables loadConfig reads, found by watching it read a minimal environment. */
function variablesRead(): string[] {
  const read = new Set<string>();
  const env = new Proxy(
    {
      JWT_SECRET: 'x'.repeat(48),
      DATABASE_URL: 'sqlite::memory:',
    } as NodeJS.ProcessEnv,
    {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return Reflect.get(target, name);
      },
    },
  );
  loadConfig(env);
  return [...read].filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name)).sort();
}

const documented = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .match(/`[A-Z][A-Z0-9_]+`/g)
      ?.map((n) => n.slice(1, -1)) ?? [],
  );

describe('every setting the service reads is documented', () => {
  const names = variablesRead();

  it('reads a sensible set of variables', () => {
    expect(names).toContain('PORT');
    expect(names).toContain('WEBHOOK_ALLOW_PRIVATE');
  });

  it('docs/configuration.md names each one', () => {
    const inDoc = documented('docs/configuration.md');
    // Rate-limit rules are listed by their rule name under `LIMIT_<NAME>`.
    const named = (n: string) =>
      inDoc.has(n) ||
      (n.startsWith('LIMIT_') && inDoc.has(n.slice('LIMIT_'.length)));
    expect(names.filter((n) => !named(n))).toEqual([]);
  });

  it("both READMEs' tables name each one an operator sets at first", () => {
    // The README keeps a short table: lifetimes and process tuning are left to configuration.md.
    const inDepth = new Set([
      'DATA_DIR',
      'REDIS_PREFIX',
      'NODE_ENV',
      'CAPTCHA_COST',
      'REGISTRATION_EMAIL_DOMAINS',
      'REGISTRATION_BLOCKED_DOMAINS',
      'ACCESS_TOKEN_TTL',
      'ID_TOKEN_TTL',
      'REFRESH_TOKEN_TTL',
      'AUTH_CODE_TTL',
      'TOKEN_TTL',
      'GAME_TOKEN_TTL',
      'DEVICE_CODE_TTL',
      'CORS_CACHE_TTL',
    ]);
    for (const readme of ['README.md', 'README.zh-CN.md']) {
      const inReadme = documented(readme);
      expect({
        readme,
        missing: names.filter(
          (n) => !inDepth.has(n) && !n.startsWith('LIMIT_') && !inReadme.has(n),
        ),
      }).toEqual({ readme, missing: [] });
    }
  });
});
