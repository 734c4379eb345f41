import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  jwtVerify,
} from 'jose';
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
let clock = Date.now();

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

describe('throttling', () => {
  it('wrong secrets and codes count per client and address like the seed exchange; then 429, other clients unaffected', async () => {
    const t2 = await createTestApp({
      BASE_URL: ISSUER,
      LIMIT_EXCHANGE_PAIR: '3/300',
    });
    try {
      const owner = await t2.register();
      const a = await createApp(t2, owner, { redirect_uris: [CB] });
      const b = await createApp(t2, owner, { redirect_uris: [CB] });
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push(
          (
            await postForm(
              t2,
              '/oauth/token',
              { grant_type: 'refresh_token', refresh_token: 'x' },
              { basic: [a.client_id, i === 0 ? 'wrong' : a.client_secret!] },
            )
          ).statusCode,
        );
      expect(codes).toEqual([401, 400, 400]);
      const blocked = await postForm(
        t2,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { basic: [a.client_id, a.client_secret!] },
      );
      expect([blocked.statusCode, blocked.headers['cache-control']]).toEqual([
        429,
        'no-store',
      ]);
      expect(typeof blocked.json().error).toBe('string');
      expect(
        (
          await postForm(
            t2,
            '/oauth/token',
            { grant_type: 'refresh_token', refresh_token: 'x' },
            { basic: [b.client_id, b.client_secret!] },
          )
        ).statusCode,
      ).toBe(400);
    } finally {
      await t2.close();
    }
  });
});

describe('bad input never answers 500', () => {
  const paths = [
    '/oauth/token',
    '/oauth/revoke',
    '/oauth/introspect',
    '/oauth/device_authorization',
    '/oauth/userinfo',
  ];
  const names = [
    'grant_type',
    'code',
    'refresh_token',
    'client_id',
    'client_secret',
    'redirect_uri',
    'code_verifier',
    'scope',
    'token',
    'token_type_hint',
    'device_code',
    'access_token',
  ];
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '%00',
      'x'.repeat(70_000),
      '💥',
      'authorization_code',
      'refresh_token',
      'client_credentials',
      DEVICE,
      '__proto__',
      'a.b.c',
      'eyJhbGciOiJub25lIn0.e30.',
    ),
  );
  const headerValue = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      'Basic',
      'Basic !!!',
      'Basic Og==',
      `Basic ${Buffer.from('%zz:%zz').toString('base64')}`,
      'Bearer',
      'Bearer a.b.c',
      'Bearer \u00ff',
    ),
    fc.string(),
  );

  it('random forms, JSON of odd types, NUL bytes and huge values: always a 4xx (or 200) with an RFC error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(
          fc.constantFrom(...names),
          fc.oneof(value, fc.array(value, { maxLength: 3 })),
        ),
        headerValue,
        fc.boolean(),
        async (path, fields, authorization, asJson) => {
          const form = new URLSearchParams();
          for (const [k, v] of Object.entries(fields))
            for (const one of [v].flat()) form.append(k, one);
          const res = await t.app.inject({
            method: 'POST',
            url: path,
            payload: asJson ? JSON.stringify(fields) : form.toString(),
            headers: {
              'content-type': asJson
                ? 'application/json'
                : 'application/x-www-form-urlencoded',
              ...(authorization !== undefined &&
              /^[\x20-\x7e]*$/.test(authorization)
                ? { authorization }
                : {}),
            },
          });
          expect(
            res.statusCode,
            `${path} ${res.body.slice(0, 200)}`,
          ).toBeLessThan(500);
          if (res.statusCode >= 400)
            expect(typeof res.json().error).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
  });
});
