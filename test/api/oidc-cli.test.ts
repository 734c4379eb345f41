import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';
import { runCommand } from '../helpers/server.js';
import { createSqlStorage } from '../../src/app/sql-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-oidc-cli-'));
const PG_BASE = isPostgresUrl(process.env.TEST_DATABASE_URL) ? process.env.TEST_DATABASE_URL : undefined;
const env: Record<string, string> = {
  DATABASE_URL: `sqlite:${join(dir, 'ac.db')}`, JWT_SECRET: 'oidc-cli-secret-oidc-cli-secret-0123456789', LOG_LEVEL: 'warn',
};
let dispose: () => Promise<void> = async () => undefined;

const cli = (args: string[]) => runCommand(env, args, { isolated: true, timeoutMs: 30_000 });

beforeAll(async () => {
  if (PG_BASE) {
    const schema = await freshPostgresSchema(PG_BASE);
    env.DATABASE_URL = schema.url;
    dispose = schema.dispose;
  }
  const user = await cli(['user', 'create', '--username', 'oidc_owner', '--password', 'password123', '--email', 'oidc_owner@example.com']);
  expect(user.code, user.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('account-center CLI: OpenID Connect', () => {
  it('app create takes --grant-types, --auth-method and --post-logout-redirect-uri', async () => {
    const res = await cli(['app', 'create', '--owner', 'oidc_owner', '--name', 'Grafana', '--redirect-uri', 'https://grafana.example/login/generic_oauth',
      '--grant-types', 'authorization_code,refresh_token,client_credentials', '--auth-method', 'client_secret_post', '--post-logout-redirect-uri', 'https://grafana.example/login']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], token_endpoint_auth_method: 'client_secret_post',
      post_logout_redirect_uris: ['https://grafana.example/login'], client_type: 'confidential',
    });
    const bad = await cli(['app', 'create', '--owner', 'oidc_owner', '--name', 'SPA', '--redirect-uri', 'https://spa.example/cb', '--public', '--grant-types', 'client_credentials']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('account-center: invalid parameter: grant_types');
    const method = await cli(['app', 'create', '--owner', 'oidc_owner', '--name', 'SPA', '--redirect-uri', 'https://spa.example/cb', '--public', '--auth-method', 'client_secret_basic']);
    expect(method.code).toBe(2);
  }, 60_000);

  it('app create --client-id of digits only exits non-zero with one line and creates nothing', async () => {
    const res = await cli(['app', 'create', '--owner', 'oidc_owner', '--name', 'Service', '--redirect-uri', 'https://svc.example/cb',
      '--client-id', '125', '--grant-types', 'client_credentials']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('account-center: invalid parameter: client_id\n');
    expect(res.stdout).toBe('');
    const ok = await cli(['app', 'create', '--owner', 'oidc_owner', '--name', 'Service', '--redirect-uri', 'https://svc.example/cb', '--client-id', 'svc125']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).client_id).toBe('svc125');
  }, 60_000);

  it('keys rotate makes a new key current and keeps the old one, encrypted at rest', async () => {
    const first = await cli(['keys', 'rotate']);
    expect(first.code, first.stderr).toBe(0);
    const second = await cli(['keys', 'rotate']);
    const [a, b] = [JSON.parse(first.stdout).kid, JSON.parse(second.stdout).kid];
    expect(a).not.toBe(b);
    const storage = await createSqlStorage(env.DATABASE_URL!);
    try {
      const keys = await storage.signingKeys.list(5);
      expect(keys.map((k) => k.kid)).toEqual([b, a]);
      expect(keys[0]!.retiredAt).toBeNull();
      expect(keys[1]!.retiredAt).not.toBeNull();
      for (const k of keys) expect(k.privateJwkEnc).not.toMatch(/"d"\s*:/);
    } finally {
      await storage.close();
    }
    expect((await cli(['keys', 'frobnicate'])).code).toBe(2);
  }, 60_000);
});
