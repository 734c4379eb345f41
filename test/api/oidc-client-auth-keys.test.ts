import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  jwtVerify,
} from 'jose';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, injectFetch, postForm } from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let service: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
  dev = await t.register();
  service = await createApp(t, dev, {
    redirect_uris: [CB],
    scopes: ['stats.read', 'stats.write'],
    grant_types: ['client_credentials'],
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

describe('client authentication, repeated', () => {
  it('a Basic header that worked stops working at once when the secret is rotated, the method changes or the app is disabled', async () => {
    const app = await createApp(t, dev, {
      redirect_uris: [CB],
      grant_types: ['client_credentials'],
    });
    const old = {
      basic: [app.client_id, app.client_secret!] as [string, string],
    };
    const token = (
      await postForm(
        t,
        '/oauth/token',
        { grant_type: 'client_credentials' },
        old,
      )
    ).json().access_token;
    const introspect = (
      cred: { basic: [string, string] },
      extra: Record<string, string> = {},
    ) => postForm(t, '/oauth/introspect', { token, ...extra }, cred);
    for (let i = 0; i < 3; i++)
      expect((await introspect(old)).json().active).toBe(true);
    // Body credentials beside a Basic header that worked before are still refused.
    expect(
      (await introspect(old, { client_secret: app.client_secret! })).json()
        .error,
    ).toBe('invalid_request');
    expect(
      (await introspect(old, { client_id: 'someone-else' })).json().error,
    ).toBe('invalid_request');

    const rotated = await t.post(
      '/api/v1/auth/apps/rotate_secret',
      { client_id: app.client_id },
      dev.token,
    );
    const fresh = {
      basic: [app.client_id, rotated.json().data.client_secret as string] as [
        string,
        string,
      ],
    };
    // The new secret first, so the app is read again before the old header comes back.
    expect((await introspect(fresh)).json().active).toBe(true);
    const refused = await introspect(old);
    expect([
      refused.statusCode,
      refused.json().error,
      refused.headers['www-authenticate'],
    ]).toEqual([401, 'invalid_client', 'Basic realm="https://id.example.com"']);

    await t.post(
      '/api/v1/auth/apps/update',
      {
        client_id: app.client_id,
        token_endpoint_auth_method: 'client_secret_post',
      },
      dev.token,
    );
    expect((await introspect(fresh)).statusCode).toBe(401);
    expect(
      (
        await postForm(t, '/oauth/introspect', {
          token,
          client_id: app.client_id,
          client_secret: fresh.basic[1],
        })
      ).json().active,
    ).toBe(true);
    await t.post(
      '/api/v1/auth/apps/update',
      {
        client_id: app.client_id,
        token_endpoint_auth_method: 'client_secret_basic',
      },
      dev.token,
    );
    expect((await introspect(fresh)).json().active).toBe(true);

    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: app.client_id, enabled: false },
      dev.token,
    );
    expect((await introspect(fresh)).statusCode).toBe(401);
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: app.client_id, enabled: true },
      dev.token,
    );
    expect((await introspect(fresh)).json().active).toBe(true);
  });
});

describe('key rotation', () => {
  it('a new key signs new tokens; the previous one stays in the JWKS, so earlier tokens still verify', async () => {
    const cred = {
      basic: [service.client_id, service.client_secret!] as [string, string],
    };
    const before = (
      await postForm(
        t,
        '/oauth/token',
        { grant_type: 'client_credentials' },
        cred,
      )
    ).json().access_token;
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await t.runtime.services.oidc.keys.rotate();
    expect(newKid).not.toBe(oldKid);
    const after = (
      await postForm(
        t,
        '/oauth/token',
        { grant_type: 'client_credentials' },
        cred,
      )
    ).json().access_token;
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    const kids = (await t.get('/oauth/jwks'))
      .json()
      .keys.map((k: { kid: string }) => k.kid);
    expect(kids).toEqual([newKid, oldKid]);
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!), {
      [customFetch]: injectFetch(t.app) as typeof fetch,
    });
    for (const token of [before, after])
      await jwtVerify(token, jwks, {
        issuer: ISSUER,
        currentDate: new Date(clock),
      });
    expect(
      (await postForm(t, '/oauth/introspect', { token: before }, cred)).json()
        .active,
    ).toBe(true);
  });
});
