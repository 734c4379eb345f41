import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import type { TestApp } from '../helpers/app.js';

/**
 * `account-center provider …` and `user links` (docs/upstream.md): one clear line and exit 2
 * for a bad option, JSON without secrets, secrets stored sealed, and a running instance that
 * follows the CLI's changes within 5 s.
 */
const ws = cliWorkspace('ac-upstream-cli-');
const SECRET = 'discord-client-secret-never-printed-0123456789';
const PROVIDERS = [
  '--id steam --type steam --name Steam --api-key STEAMKEY0123'.split(' '),
  [
    ...'--id discord --type discord --name Discord --client-id 1100'.split(' '),
    ...['--client-secret', SECRET, '--require-guild', '42'],
  ],
];
let db: string;
let service: TestApp;
beforeAll(async () => {
  db = await ws.freshDatabase('upstream');
  expect((await ws.cli(db, ['migrate'])).code).toBe(0);
  service = await ws.service(db);
  // The two providers this file changes, added as upstream-cli-providers.test.ts adds them.
  for (const add of PROVIDERS)
    expect((await ws.cli(db, ['provider', 'add', ...add])).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await ws.dispose();
});

const buttons = async () =>
  (
    await service.app.inject({
      method: 'GET',
      url: '/api/v1/auth/upstream/providers',
    })
  )
    .json()
    .data.providers.map((p: { id: string }) => p.id);

describe('account-center provider', () => {
  it('disable, enable, update and remove reach a running instance within 5 s', async () => {
    await waitFor(
      'the buttons to show both providers',
      5000,
      async () => (await buttons()).length === 2,
    );
    expect((await ws.cli(db, ['provider', 'disable', 'discord'])).code).toBe(0);
    await waitFor(
      'the disabled button to go',
      5000,
      async () => (await buttons()).join() === 'steam',
    );
    expect((await ws.cli(db, ['provider', 'enable', 'discord'])).code).toBe(0);
    const updated = await ws.cli(db, [
      'provider',
      'update',
      'discord',
      '--name',
      'Discord 社区',
      '--require-guild',
      '',
    ]);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      name: 'Discord 社区',
      require_guild: null,
      has_client_secret: true,
    });
    await waitFor('the button to come back renamed', 5000, async () => {
      const res = (
        await service.app.inject({
          method: 'GET',
          url: '/api/v1/auth/upstream/providers',
        })
      ).json().data.providers;
      return res.some((p: { name: string }) => p.name === 'Discord 社区');
    });
    expect((await ws.cli(db, ['provider', 'remove', 'steam'])).code).toBe(0);
    await waitFor(
      'the removed provider to go',
      5000,
      async () => (await buttons()).join() === 'discord',
    );
  }, 120_000);

  it("user links lists a user's linked accounts", async () => {
    expect(
      (
        await ws.cli(db, [
          'user',
          'create',
          '--username',
          'linked_player',
          '--password',
          'password123',
          '--email',
          'linked@example.com',
        ])
      ).code,
    ).toBe(0);
    const storage = await createSqlStorage(db);
    try {
      const user = await storage.users.findByUsername('linked_player');
      await storage.upstreamLinks.create({
        providerId: 'discord',
        subject: '555',
        userId: user!.id,
        displayName: 'On Discord',
        avatarUrl: '',
        linkedAt: Date.now(),
        lastUsedAt: null,
      });
    } finally {
      await storage.close();
    }
    const run = await ws.cli(db, ['user', 'links', 'linked_player']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({
        provider: 'discord',
        provider_name: 'Discord 社区',
        display_name: 'On Discord',
      }),
    ]);
    const unknown = await ws.cli(db, ['user', 'links', 'nobody_at_all']);
    expect(unknown.code).toBe(2);
  }, 120_000);

  it('prints callback addresses on BASE_URL, and says so when this shell lacks it', async () => {
    const fresh = await ws.freshDatabase('upstream_base');
    const withBase = await ws.cli(
      fresh,
      [
        'provider',
        'add',
        '--id',
        'steam',
        '--type',
        'steam',
        '--name',
        'Steam',
      ],
      { BASE_URL: 'https://accounts.example.org' },
    );
    expect(withBase.code, withBase.stderr).toBe(0);
    expect(JSON.parse(withBase.stdout).callback_url).toBe(
      'https://accounts.example.org/login/steam/callback',
    );
    expect(withBase.stderr).toBe('');
    const without = await ws.cli(fresh, ['provider', 'list']);
    expect(without.code, without.stderr).toBe(0);
    expect(JSON.parse(without.stdout)[0].callback_url).toBe(
      'http://127.0.0.1:3000/login/steam/callback',
    );
    expect(without.stderr).toMatch(
      /BASE_URL is not set for this command, so callback_url is built on http:\/\/127\.0\.0\.1:3000/,
    );
  }, 120_000);
});

describe('account-center webhook add', () => {
  it('names WEBHOOK_ALLOW_PRIVATE when it refuses an internal address', async () => {
    const fresh = await ws.freshDatabase('webhook_private');
    const refused = await ws.cli(fresh, [
      'webhook',
      'add',
      '--url',
      'http://127.0.0.1:9/hook',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'account-center: webhook add: http://127.0.0.1:9/hook is a loopback, private or link-local address; the server posts there only with WEBHOOK_ALLOW_PRIVATE=on, which must be set for the server and for this command',
    ]);
    const allowed = await ws.cli(
      fresh,
      ['webhook', 'add', '--url', 'http://127.0.0.1:9/hook'],
      { WEBHOOK_ALLOW_PRIVATE: 'on' },
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).url).toBe('http://127.0.0.1:9/hook');
  }, 120_000);
});
