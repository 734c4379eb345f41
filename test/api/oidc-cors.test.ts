import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';

const SPA = 'https://spa.example.com';
let t: TestApp;
let spa: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: 'https://id.example.com' });
  const dev = await t.register();
  spa = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: [`${SPA}/cb`],
    cors_origins: [SPA],
    grant_types: [
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:device_code',
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('CORS on the standard endpoints (docs/api.md §6 with the client’s cors_origins)', () => {
  for (const path of [
    '/oauth/token',
    '/oauth/userinfo',
    '/oauth/revoke',
    '/oauth/device_authorization',
  ]) {
    it(`${path}: a whitelisted origin's preflight passes, another origin's is refused`, async () => {
      const ok = await t.app.inject({
        method: 'OPTIONS',
        url: `${path}?client_id=${spa.client_id}`,
        headers: { origin: SPA, 'access-control-request-method': 'POST' },
      });
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe(SPA);
      const bad = await t.app.inject({
        method: 'OPTIONS',
        url: path,
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
        },
      });
      expect(bad.statusCode).toBe(403);
      expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    });
  }

  it('actual requests echo a whitelisted origin, errors included, and never another', async () => {
    const res = await postForm(
      t,
      '/oauth/token',
      {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: spa.client_id,
      },
      { headers: { origin: SPA } },
    );
    expect(res.json().error).toBe('invalid_grant');
    expect(res.headers['access-control-allow-origin']).toBe(SPA);
    const evil = await postForm(
      t,
      '/oauth/token',
      {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: spa.client_id,
      },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const device = await postForm(
      t,
      '/oauth/device_authorization',
      { client_id: spa.client_id },
      { headers: { origin: SPA } },
    );
    expect(device.statusCode).toBe(200);
    expect(device.headers['access-control-allow-origin']).toBe(SPA);
  });
});
