import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { authorizeCode, createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, postForm, signInWithCode } from '../helpers/oidc-client.js';
import { sha256Hex } from '../../src/platform/crypto/random.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
let t: TestApp;
let dev: TestUser;
let person: TestUser;
let as: oauth.AuthorizationServer;
let mine: CreatedApp;
let theirs: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
  dev = await t.register();
  person = await t.register();
  const grants = [
    'authorization_code',
    'refresh_token',
    'client_credentials',
    DEVICE,
  ];
  mine = await createApp(t, dev, {
    redirect_uris: [CB],
    grant_types: grants,
    scopes: ['stats.read'],
  });
  theirs = await createApp(t, await t.register(), {
    redirect_uris: [CB],
    grant_types: grants,
    scopes: ['stats.read'],
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const basic = (c: CreatedApp): { basic: [string, string] } => ({
  basic: [c.client_id, c.client_secret!],
});

describe('client ids that could be a person’s sub', () => {
  it('the apps API refuses a client id of digits only; letters with digits are fine', async () => {
    for (const client_id of [
      '125',
      '007',
      String(person.uid),
      '1234567890123',
    ]) {
      const res = await t.post(
        '/api/v1/auth/apps',
        {
          display_name: 'Digits',
          redirect_uris: [CB],
          client_id,
          grant_types: ['client_credentials'],
        },
        dev.token,
      );
      expect(failure(res)).toEqual([400, refusal('参数错误：client_id')]);
      expect(await t.runtime.storage.apps.findById(client_id)).toBeUndefined();
    }
    expect(
      (await createApp(t, dev, { client_id: `app${person.uid}` })).client_id,
    ).toBe(`app${person.uid}`);
    expect(
      (await createApp(t, dev, { client_id: `${person.uid}-svc` })).client_id,
    ).toBe(`${person.uid}-svc`);
  });

  it('a digits-only client registered earlier gets no client_credentials token', async () => {
    const secret = 'legacy-secret-legacy-secret-legacy-secret';
    const clientId = String(person.uid);
    await t.runtime.storage.apps.create(
      {
        clientId,
        ownerId: dev.uid,
        displayName: 'Legacy',
        homepage: '',
        scopes: ['stats.read'],
        redirectUris: [CB],
        corsOrigins: [],
        clientType: 'confidential',
        secretHash: sha256Hex(secret),
        status: 'active',
        grantTypes: ['client_credentials'],
      },
      Date.now(),
    );
    const res = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'client_credentials' },
      { basic: [clientId, secret] },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('unauthorized_client');
    expect(res.json().access_token).toBeUndefined();
  });
});

describe('introspection answers only the client the token was issued to', () => {
  it('access and refresh tokens of another client are inactive; its own are active', async () => {
    const tokens = await signInWithCode(t, as, person, mine, CB);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const other = await postForm(
        t,
        '/oauth/introspect',
        { token },
        basic(theirs),
      );
      expect([other.statusCode, other.json()]).toEqual([
        200,
        { active: false },
      ]);
      const own = await postForm(
        t,
        '/oauth/introspect',
        { token },
        basic(mine),
      );
      expect(own.json()).toMatchObject({
        active: true,
        client_id: mine.client_id,
        sub: String(person.uid),
        username: person.username,
      });
    }
  });

  it('a client_credentials token and a v1 token of another app are inactive too', async () => {
    const cc = (
      await postForm(
        t,
        '/oauth/token',
        { grant_type: 'client_credentials' },
        basic(mine),
      )
    ).json().access_token as string;
    const code = await authorizeCode(t, person, {
      client_id: mine.client_id,
      redirect_uri: CB,
    });
    const v1 = (
      await t.post('/api/v1/auth/exchange', {
        client_id: mine.client_id,
        client_secret: mine.client_secret,
        code,
      })
    ).json().access_token as string;
    for (const token of [cc, v1]) {
      expect(
        (
          await postForm(t, '/oauth/introspect', { token }, basic(theirs))
        ).json(),
      ).toEqual({ active: false });
      expect(
        (await postForm(t, '/oauth/introspect', { token }, basic(mine))).json(),
      ).toMatchObject({ active: true, client_id: mine.client_id });
    }
    // The center's own first-party tokens belong to no client.
    expect(
      (
        await postForm(
          t,
          '/oauth/introspect',
          { token: person.token },
          basic(mine),
        )
      ).json(),
    ).toEqual({ active: false });
  });
});

describe('a NUL byte in client credentials is a 4xx', () => {
  const endpoints: Array<[string, Record<string, string>]> = [
    ['/oauth/token', { grant_type: 'client_credentials' }],
    ['/oauth/revoke', { token: 'x' }],
    ['/oauth/introspect', { token: 'x' }],
    ['/oauth/device_authorization', {}],
  ];

  it('in Basic credentials (id or secret): invalid_client 401', async () => {
    for (const [path, form] of endpoints) {
      for (const [id, secret] of [
        ['cli\0ent', 'secret'],
        [mine.client_id, 'sec\0ret'],
        [`${mine.client_id}\0`, mine.client_secret!],
      ]) {
        const authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
        const res = await postForm(t, path, form, {
          headers: { authorization },
        });
        expect([path, res.statusCode, res.json().error]).toEqual([
          path,
          401,
          'invalid_client',
        ]);
      }
    }
  });

  it('in the form fields client_id and client_secret: a 4xx', async () => {
    for (const [path, form] of endpoints) {
      for (const creds of [
        { client_id: 'cli\0ent' } as Record<string, string>,
        { client_id: 'cli\0ent', client_secret: 'x' },
        { client_id: mine.client_id, client_secret: 's\0' },
      ]) {
        const res = await postForm(t, path, { ...form, ...creds });
        expect([path, res.statusCode >= 400 && res.statusCode < 500]).toEqual([
          path,
          true,
        ]);
      }
    }
  });

  it('in a client_id the authorization and end-session forms name: a 4xx, on GET and POST', async () => {
    const form = {
      client_id: 'cli\0ent',
      post_logout_redirect_uri: CB,
      redirect_uri: CB,
      response_type: 'code',
      scope: 'openid',
    };
    for (const path of ['/oauth/authorize', '/oauth/end_session']) {
      const posted = await postForm(t, path, form, {
        headers: { cookie: `ac_session=${person.token}` },
      });
      const got = await t.get(`${path}?${new URLSearchParams(form)}`);
      expect([
        path,
        posted.statusCode,
        got.statusCode,
        posted.statusCode >= 400 && posted.statusCode < 500,
        got.statusCode >= 400 && got.statusCode < 500,
      ]).toEqual([path, expect.any(Number), expect.any(Number), true, true]);
    }
  });
});
