import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, postForm, viaInject } from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let tv: CreatedApp;
let clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
  dev = await t.register();
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

describe('device grant (RFC 8628)', () => {
  it('device authorization, pending, slow_down, approval on the seed page API, tokens once', async () => {
    const c = { client_id: tv.client_id };
    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      c,
      await oauth.deviceAuthorizationRequest(
        as,
        c,
        oauth.None(),
        { scope: 'openid profile offline_access' },
        viaInject(t),
      ),
    );
    expect(started.user_code).toMatch(/^\d{6}$/);
    expect(started.verification_uri).toBe(`${ISSUER}/device`);
    expect(started.verification_uri_complete).toBe(
      `${ISSUER}/device?user_code=${started.user_code}`,
    );
    expect(started.interval).toBe(5);
    const poll = () =>
      postForm(t, '/oauth/token', {
        grant_type: DEVICE,
        device_code: started.device_code,
        client_id: tv.client_id,
      });
    expect((await poll()).json().error).toBe('authorization_pending');
    expect((await poll()).json().error).toBe('slow_down');
    // The seed's device code endpoint never redeems a code started here.
    expect(
      (
        await t.post('/api/v1/auth/device/poll', {
          device_code: started.device_code,
        })
      ).statusCode,
    ).toBe(400);
    const person = await t.register();
    expect(
      (
        await t.post(
          '/api/v1/auth/device/approve',
          { user_code: started.user_code },
          person.token,
        )
      ).statusCode,
    ).toBe(200);
    clock += 20_000;
    const res = await oauth.deviceCodeGrantRequest(
      as,
      c,
      oauth.None(),
      started.device_code,
      viaInject(t),
    );
    const tokens = await oauth.processDeviceCodeResponse(as, c, res);
    expect(tokens.scope).toBe('openid profile offline_access');
    expect(typeof tokens.refresh_token).toBe('string');
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      sub: String(person.uid),
      preferred_username: person.username,
    });
    clock += 20_000;
    expect((await poll()).json().error).toBe('expired_token');
  });

  it('denied → access_denied; expired → expired_token; other clients and seed codes → invalid_grant; bad scope → invalid_scope', async () => {
    const start = async (scope = 'openid') =>
      (
        await postForm(t, '/oauth/device_authorization', {
          client_id: tv.client_id,
          scope,
        })
      ).json();
    const a = await start();
    const person = await t.register();
    await t.post(
      '/api/v1/auth/device/approve',
      { user_code: a.user_code, deny: true },
      person.token,
    );
    expect(
      (
        await postForm(t, '/oauth/token', {
          grant_type: DEVICE,
          device_code: a.device_code,
          client_id: tv.client_id,
        })
      ).json().error,
    ).toBe('access_denied');
    const b = await start();
    clock += 601_000;
    expect(
      (
        await postForm(t, '/oauth/token', {
          grant_type: DEVICE,
          device_code: b.device_code,
          client_id: tv.client_id,
        })
      ).json().error,
    ).toBe('expired_token');
    const other = await createApp(t, dev, {
      client_type: 'public',
      redirect_uris: [CB],
      grant_types: [DEVICE],
    });
    const c = await start();
    expect(
      (
        await postForm(t, '/oauth/token', {
          grant_type: DEVICE,
          device_code: c.device_code,
          client_id: other.client_id,
        })
      ).json().error,
    ).toBe('invalid_grant');
    const seed = (
      await t.post('/api/v1/auth/device/start', { client_id: tv.client_id })
    ).json().data;
    expect(
      (
        await postForm(t, '/oauth/token', {
          grant_type: DEVICE,
          device_code: seed.device_code,
          client_id: tv.client_id,
        })
      ).json().error,
    ).toBe('invalid_grant');
    expect(
      (
        await postForm(t, '/oauth/device_authorization', {
          client_id: tv.client_id,
          scope: 'admin',
        })
      ).json().error,
    ).toBe('invalid_scope');
    const noGrant = await createApp(t, dev, {
      client_type: 'public',
      redirect_uris: [CB],
    });
    expect(
      (
        await postForm(t, '/oauth/device_authorization', {
          client_id: noGrant.client_id,
        })
      ).json().error,
    ).toBe('unauthorized_client');
    const conf = await createApp(t, dev, {
      redirect_uris: [CB],
      grant_types: [DEVICE],
    });
    expect(
      (
        await postForm(t, '/oauth/device_authorization', {
          client_id: conf.client_id,
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await postForm(
          t,
          '/oauth/device_authorization',
          {},
          { basic: [conf.client_id, conf.client_secret!] },
        )
      ).statusCode,
    ).toBe(200);
  });
});
