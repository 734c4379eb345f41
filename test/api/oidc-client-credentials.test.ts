import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  discover,
  injectFetch,
  postForm,
  viaInject,
} from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let service: CreatedApp;
let tv: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
  dev = await t.register();
  service = await createApp(t, dev, {
    redirect_uris: [CB],
    scopes: ['stats.read', 'stats.write'],
    grant_types: ['client_credentials'],
  });
  tv = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: [CB],
    grant_types: [DEVICE, 'refresh_token'],
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

describe('client_credentials', () => {
  it('a confidential client gets an access token for itself: sub = client id, no refresh or ID token', async () => {
    const c = { client_id: service.client_id };
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      c,
      oauth.ClientSecretBasic(service.client_secret!),
      { scope: 'stats.read' },
      viaInject(t),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processClientCredentialsResponse(as, c, res);
    expect(tokens.scope).toBe('stats.read');
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!), {
      [customFetch]: injectFetch(t.app) as typeof fetch,
    });
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: ISSUER,
      typ: 'at+jwt',
      currentDate: new Date(clock),
    });
    expect(payload).toMatchObject({
      sub: service.client_id,
      client_id: service.client_id,
      scope: 'stats.read',
    });
    expect(payload.sid).toBeUndefined();
    const seen = await postForm(
      t,
      '/oauth/introspect',
      { token: tokens.access_token },
      { basic: [service.client_id, service.client_secret!] },
    );
    expect([seen.statusCode, seen.headers['cache-control']]).toEqual([
      200,
      'no-store',
    ]);
    expect(seen.json()).toMatchObject({
      active: true,
      sub: service.client_id,
      client_id: service.client_id,
    });
    expect(seen.json().username).toBeUndefined();
    expect(
      (await t.get('/oauth/userinfo', tokens.access_token)).statusCode,
    ).toBe(401);
  });

  it('scope outside the client’s list → invalid_scope; clients without the grant → unauthorized_client', async () => {
    const cred = {
      basic: [service.client_id, service.client_secret!] as [string, string],
    };
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'client_credentials', scope: 'admin' },
          cred,
        )
      ).json().error,
    ).toBe('invalid_scope');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'client_credentials' },
          cred,
        )
      ).json().scope,
    ).toBe('stats.read stats.write');
    expect(
      (
        await postForm(t, '/oauth/token', {
          grant_type: 'client_credentials',
          client_id: tv.client_id,
        })
      ).json().error,
    ).toBe('unauthorized_client');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'authorization_code', code: 'x' },
          cred,
        )
      ).json().error,
    ).toBe('unauthorized_client');
  });

  it('the apps API refuses client_credentials for public clients and auth methods of the other type', async () => {
    const bad = [
      { client_type: 'public', grant_types: ['client_credentials'] },
      {
        client_type: 'public',
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { token_endpoint_auth_method: 'none' },
      { grant_types: ['implicit'] },
      { grant_types: [] },
      { post_logout_redirect_uris: ['not a uri'] },
    ];
    for (const fields of bad) {
      const res = await t.post(
        '/api/v1/auth/apps',
        { display_name: 'X', redirect_uris: [CB], ...fields },
        dev.token,
      );
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().ok).toBe(false);
    }
    const ok = await t.post(
      '/api/v1/auth/apps',
      {
        display_name: 'X',
        redirect_uris: [CB],
        post_logout_redirect_uris: ['https://rp.example.com/bye'],
      },
      dev.token,
    );
    expect(ok.json().data).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      post_logout_redirect_uris: ['https://rp.example.com/bye'],
    });
    const upd = await t.post(
      '/api/v1/auth/apps/update',
      {
        client_id: ok.json().data.client_id,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
      },
      dev.token,
    );
    expect(upd.json().data).toMatchObject({
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code'],
    });
  });
});
