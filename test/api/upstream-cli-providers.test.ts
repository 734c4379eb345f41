import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import type { TestApp } from '../helpers/app.js';

/**
 * `account-center provider …` and `user links` (docs/upstream.md): one clear line and exit 2
 * for a bad option, JSON without secrets, secrets stored sealed, and a running instance that
 * follows the CLI's changes within 5 s.
 */
const ws = cliWorkspace('ac-upstream-cli-');
let db: string;
let service: TestApp;
const SECRET = 'discord-client-secret-never-printed-0123456789';

beforeAll(async () => {
  db = await ws.freshDatabase('upstream');
  expect((await ws.cli(db, ['migrate'])).code).toBe(0);
  service = await ws.service(db);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await ws.dispose();
});

describe('account-center provider', () => {
  it('adds providers, lists them without secrets and keeps secrets sealed', async () => {
    const steam = await ws.cli(db, [
      'provider',
      'add',
      '--id',
      'steam',
      '--type',
      'steam',
      '--name',
      'Steam',
      '--api-key',
      'STEAMKEY0123',
    ]);
    expect(steam.code, steam.stderr).toBe(0);
    expect(JSON.parse(steam.stdout)).toMatchObject({
      id: 'steam',
      type: 'steam',
      has_api_key: true,
      enabled: true,
      callback_url: expect.stringMatching(/\/login\/steam\/callback$/),
    });
    const discord = await ws.cli(db, [
      'provider',
      'add',
      '--id',
      'discord',
      '--type',
      'discord',
      '--name',
      'Discord',
      '--client-id',
      '1100',
      '--client-secret',
      SECRET,
      '--require-guild',
      '42',
    ]);
    expect(discord.code, discord.stderr).toBe(0);
    const list = await ws.cli(db, ['provider', 'list']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual([
      'steam',
      'discord',
    ]);
    expect(list.stdout + discord.stdout).not.toContain(SECRET);
    const storage = await createSqlStorage(db);
    try {
      const stored = await storage.upstreamProviders.find('discord');
      expect(stored?.clientSecretEnc).toMatch(/^v1\./);
      expect(JSON.stringify(stored)).not.toContain(SECRET);
    } finally {
      await storage.close();
    }
  }, 120_000);

  it('a bad option is one line and exit 2, and changes nothing', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['provider', 'add', '--id', 'Bad Id', '--type', 'steam', '--name', 'x'],
        'provider add: --id must be 2–32 of a-z 0-9 -',
      ],
      [
        [
          'provider',
          'add',
          '--id',
          'gh',
          '--type',
          'github',
          '--name',
          'GitHub',
          '--client-id',
          'x',
        ],
        'provider add: --client-secret is required',
      ],
      [
        [
          'provider',
          'add',
          '--id',
          'gh',
          '--type',
          'github',
          '--name',
          'GitHub',
          '--client-id',
          'x',
          '--client-secret',
          's',
          '--token-endpoint',
          'http://example.com/t',
        ],
        'provider add: --token-endpoint must be an absolute https URL',
      ],
      [
        [
          'provider',
          'add',
          '--id',
          'gh',
          '--type',
          'github',
          '--name',
          'GitHub',
          '--client-id',
          'x',
          '--client-secret',
          's',
          '--bogus',
        ],
        'provider add: unknown option --bogus',
      ],
      [
        [
          'provider',
          'add',
          '--id',
          'steam',
          '--type',
          'steam',
          '--name',
          'Again',
        ],
        'provider id already taken',
      ],
      [
        ['provider', 'update', 'nobody', '--name', 'x'],
        'no such sign-in provider',
      ],
    ];
    for (const [args, line] of cases) {
      const run = await ws.cli(db, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(line);
    }
    expect(
      JSON.parse((await ws.cli(db, ['provider', 'list'])).stdout),
    ).toHaveLength(2);
  }, 240_000);
});
