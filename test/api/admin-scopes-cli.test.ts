import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';

/** Admin API scopes granted to an application, used with its client_credentials tokens (docs/api.md §15.3). */
const ISSUER = 'https://id.example.com';
const CB = 'https://game.example.com/cb';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
});
beforeEach(async () => {});
afterAll(async () => {
  await t.close();
});

describe('app grant-admin and revoke-admin on the command line', () => {
  const ws = cliWorkspace('ac-admin-scopes-');
  afterAll(() => ws.dispose());

  it('grants, revokes one or all, and names an unknown scope or app', async () => {
    const db = await ws.freshDatabase('scopes');
    expect((await ws.cli(db, ['migrate'])).code).toBe(0);
    expect(
      (
        await ws.cli(db, [
          'user',
          'create',
          '--username',
          'gameops',
          '--password',
          'password123',
          '--email',
          'ops@example.com',
        ])
      ).code,
    ).toBe(0);
    const created = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'gameops',
      '--name',
      'Game',
      '--redirect-uri',
      CB,
      '--grant-types',
      'client_credentials',
      '--client-id',
      'game-server',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const granted = await ws.cli(db, [
      'app',
      'grant-admin',
      'game-server',
      'admin:users:ban',
      'admin:users:read',
    ]);
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout).admin_scopes).toEqual([
      'admin:users:read',
      'admin:users:ban',
    ]);
    const one = await ws.cli(db, [
      'app',
      'revoke-admin',
      'game-server',
      'admin:users:read',
    ]);
    expect(JSON.parse(one.stdout).admin_scopes).toEqual(['admin:users:ban']);
    const all = await ws.cli(db, ['app', 'revoke-admin', 'game-server']);
    expect(JSON.parse(all.stdout).admin_scopes).toEqual([]);
    const unknown = await ws.cli(db, [
      'app',
      'grant-admin',
      'game-server',
      'admin:everything',
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown scope "admin:everything"');
    const none = await ws.cli(db, ['app', 'grant-admin', 'game-server']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('admin:users:read');
    const noApp = await ws.cli(db, [
      'app',
      'grant-admin',
      'nope',
      'admin:users:ban',
    ]);
    expect(noApp.code).not.toBe(0);
    expect(noApp.stderr).toContain('no such application');
  }, 180_000);
});
