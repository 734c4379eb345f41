import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { authorizeAsBrowser, postForm } from '../helpers/oidc-client.js';

/** The OpenID Connect tables hold no usable secret: codes and refresh tokens hashed, private keys sealed. */
const dir = mkdtempSync(join(tmpdir(), 'ac-oidc-stored-'));
let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OpenID Connect secrets at rest', () => {
  it('the database file holds no code, refresh token, device code or private key in clear', async () => {
    const file = join(dir, 'db.sqlite');
    t = await createTestApp({
      DATABASE_URL: `sqlite:${file}`,
      BASE_URL: 'https://id.example.com',
    });
    const u = await t.register();
    const rp = await createApp(t, u, {
      redirect_uris: ['https://rp.example.com/cb'],
      grant_types: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
    });
    const code = (
      await authorizeAsBrowser(t, u, {
        response_type: 'code',
        client_id: rp.client_id,
        redirect_uri: 'https://rp.example.com/cb',
        scope: 'openid',
      })
    ).searchParams.get('code')!;
    const cred = {
      basic: [rp.client_id, rp.client_secret!] as [string, string],
    };
    const tokens = (
      await postForm(
        t,
        '/oauth/token',
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://rp.example.com/cb',
        },
        cred,
      )
    ).json();
    const rotated = (
      await postForm(
        t,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        cred,
      )
    ).json();
    const device = (
      await postForm(
        t,
        '/oauth/device_authorization',
        { scope: 'openid' },
        cred,
      )
    ).json();
    const secrets = [
      rp.client_secret!,
      code,
      tokens.refresh_token,
      rotated.refresh_token,
      device.device_code,
    ];

    const db = new Database(file, { readonly: true });
    try {
      const tables = db
        .prepare("select name from sqlite_master where type = 'table'")
        .all() as Array<{ name: string }>;
      const dump = tables
        .map(({ name }) =>
          JSON.stringify(db.prepare(`select * from "${name}"`).all()),
        )
        .join('\n');
      expect(dump).toContain(rp.client_id);
      for (const s of secrets)
        expect(
          dump.includes(s),
          `${String(s).slice(0, 6)}… stored in clear`,
        ).toBe(false);
      const keys = db
        .prepare('select public_jwk, private_jwk_enc from signing_keys')
        .all() as Array<{ public_jwk: string; private_jwk_enc: string }>;
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) {
        expect(JSON.parse(k.public_jwk).d).toBeUndefined();
        expect(k.private_jwk_enc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      }
    } finally {
      db.close();
    }
  });
});
