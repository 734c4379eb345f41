import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { createSqlStorage } from '../../src/app/sql-storage.js';

const ws = cliWorkspace('ac-oidc-cli-');
let db: string;

beforeAll(async () => {
  db = await ws.freshDatabase('ac');
  const user = await ws.cli(db, [
    'user',
    'create',
    '--username',
    'oidc_owner',
    '--password',
    'password123',
    '--email',
    'oidc_owner@example.com',
  ]);
  expect(user.code, user.stderr).toBe(0);
}, 60_000);
afterAll(() => ws.dispose());

describe('account-center CLI: OpenID Connect', () => {
  it('app create takes --grant-types, --auth-method and --post-logout-redirect-uri', async () => {
    const res = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'Grafana',
      '--redirect-uri',
      'https://grafana.example/login/generic_oauth',
      '--grant-types',
      'authorization_code,refresh_token,client_credentials',
      '--auth-method',
      'client_secret_post',
      '--post-logout-redirect-uri',
      'https://grafana.example/login',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      grant_types: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
      ],
      token_endpoint_auth_method: 'client_secret_post',
      post_logout_redirect_uris: ['https://grafana.example/login'],
      client_type: 'confidential',
    });
    const bad = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'SPA',
      '--redirect-uri',
      'https://spa.example/cb',
      '--public',
      '--grant-types',
      'client_credentials',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'account-center: invalid parameter: grant_types',
    );
    const method = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'SPA',
      '--redirect-uri',
      'https://spa.example/cb',
      '--public',
      '--auth-method',
      'client_secret_basic',
    ]);
    expect(method.code).toBe(2);
  }, 60_000);

  it('app create and app update set the back-channel logout address; a bad one exits 2 with the reason', async () => {
    const made = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'Forum',
      '--redirect-uri',
      'https://forum.example/cb',
      '--backchannel-logout-uri',
      'https://forum.example/bcl',
      '--backchannel-logout-session-required',
      'true',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const app = JSON.parse(made.stdout);
    expect(app).toMatchObject({
      backchannel_logout_uri: 'https://forum.example/bcl',
      backchannel_logout_session_required: true,
    });
    const changed = await ws.cli(db, [
      'app',
      'update',
      app.client_id,
      '--backchannel-logout-uri',
      'https://forum.example/logout',
      '--backchannel-logout-session-required',
      'false',
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({
      client_id: app.client_id,
      backchannel_logout_uri: 'https://forum.example/logout',
      backchannel_logout_session_required: false,
    });
    const bad = await ws.cli(db, [
      'app',
      'update',
      app.client_id,
      '--backchannel-logout-uri',
      'http://forum.example/logout',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid back-channel logout URI');
  }, 60_000);

  it('app create --client-id of digits only exits non-zero with one line and creates nothing', async () => {
    const res = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'Service',
      '--redirect-uri',
      'https://svc.example/cb',
      '--client-id',
      '125',
      '--grant-types',
      'client_credentials',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('account-center: invalid parameter: client_id\n');
    expect(res.stdout).toBe('');
    const ok = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'oidc_owner',
      '--name',
      'Service',
      '--redirect-uri',
      'https://svc.example/cb',
      '--client-id',
      'svc125',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).client_id).toBe('svc125');
  }, 60_000);

  it('keys rotate makes a new key current and keeps the old one, encrypted at rest', async () => {
    const first = await ws.cli(db, ['keys', 'rotate']);
    expect(first.code, first.stderr).toBe(0);
    const second = await ws.cli(db, ['keys', 'rotate']);
    const [a, b] = [
      JSON.parse(first.stdout).kid,
      JSON.parse(second.stdout).kid,
    ];
    expect(a).not.toBe(b);
    const storage = await createSqlStorage(db);
    try {
      const keys = await storage.signingKeys.list(5);
      expect(keys.map((k) => k.kid)).toEqual([b, a]);
      expect(keys[0]!.retiredAt).toBeNull();
      expect(keys[1]!.retiredAt).not.toBeNull();
      for (const k of keys) expect(k.privateJwkEnc).not.toMatch(/"d"\s*:/);
    } finally {
      await storage.close();
    }
    expect((await ws.cli(db, ['keys', 'frobnicate'])).code).toBe(2);
  }, 60_000);
});
