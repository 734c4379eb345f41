import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  authorizeAsBrowser,
  discover,
  injectFetch,
  postForm,
  viaInject,
} from '../helpers/oidc-client.js';
import { sha256Hex } from '../../src/platform/crypto/random.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
let t: TestApp;
let dev: TestUser;
let person: TestUser;
let as: oauth.AuthorizationServer;
let basic: CreatedApp;
let post: CreatedApp;
let pub: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: `${ISSUER}/` });
  dev = await t.register();
  person = await t.register();
  basic = await createApp(t, dev, { redirect_uris: [CB] });
  post = await createApp(t, dev, {
    redirect_uris: [CB],
    token_endpoint_auth_method: 'client_secret_post',
  });
  pub = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: ['http://127.0.0.1:8080/cb'],
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

/** The whole code flow through oauth4webapi: PKCE, state, nonce, ID token checks by the library. */
async function codeFlow(
  client: CreatedApp,
  auth: oauth.ClientAuth,
  scope = 'openid profile email',
) {
  const redirectUri = client.redirect_uris[0]!;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const callback = await authorizeAsBrowser(t, person, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const c: oauth.Client = { client_id: client.client_id };
  const params = oauth.validateAuthResponse(as, c, callback, state);
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    c,
    auth,
    params,
    redirectUri,
    verifier,
    viaInject(t),
  );
  expect(res.headers.get('cache-control')).toBe('no-store');
  const tokens = await oauth.processAuthorizationCodeResponse(as, c, res, {
    expectedNonce: nonce,
    requireIdToken: scope.includes('openid'),
  });
  return { tokens, client: c, code: params.get('code')! };
}

describe('discovery and keys', () => {
  it('serves one document at both well-known paths, issuer without trailing slash, every docs/api.md §12.1 field', async () => {
    const a = await t.get('/.well-known/openid-configuration');
    const b = await t.get('/.well-known/oauth-authorization-server');
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    const d = a.json();
    expect(d.issuer).toBe(ISSUER);
    for (const k of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'introspection_endpoint',
      'device_authorization_endpoint',
      'end_session_endpoint',
    ]) {
      expect(d[k]).toMatch(new RegExp(`^${ISSUER}/`));
    }
    expect(d.response_types_supported).toEqual(['code']);
    expect(d.grant_types_supported).toEqual(
      expect.arrayContaining([
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
        'client_credentials',
      ]),
    );
    expect(d.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]),
    );
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.id_token_signing_alg_values_supported).toContain('RS256');
    expect(d.id_token_signing_alg_values_supported).not.toContain('none');
    expect(d.subject_types_supported).toEqual(['public']);
    expect(d.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
    );
    expect(d.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'preferred_username', 'email']),
    );
    expect(d.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.issuer).toBe(ISSUER);
  });

  it('publishes public signing keys only, each with kid, use and alg', async () => {
    const res = await t.get('/oauth/jwks');
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const k of keys) {
      expect(k).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
      expect(typeof k.kid).toBe('string');
      for (const priv of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        expect(k[priv]).toBeUndefined();
    }
  });

  it('stores the private key encrypted, never in clear', async () => {
    const [key] = await t.runtime.storage.signingKeys.list(1);
    expect(key!.privateJwkEnc.startsWith('v1.')).toBe(true);
    expect(key!.privateJwkEnc).not.toContain('"d"');
    expect(JSON.parse(key!.publicJwk).d).toBeUndefined();
  });
});

describe('authorization code grant', () => {
  it('client_secret_basic: tokens, ID token claims, RFC 9068 access token verified from jwks_uri, userinfo', async () => {
    const { tokens, client } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
    );
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('openid profile email');
    expect(typeof tokens.refresh_token).toBe('string');
    const id = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(id).toMatchObject({
      iss: ISSUER,
      sub: String(person.uid),
      aud: basic.client_id,
      azp: basic.client_id,
      preferred_username: person.username,
      email: person.email,
      email_verified: false,
    });
    expect(typeof id.auth_time).toBe('number');
    expect(typeof id.at_hash).toBe('string');
    expect(id.exp - id.iat).toBe(3600);

    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!), {
      [customFetch]: injectFetch(t.app) as typeof fetch,
    });
    const { payload, protectedHeader } = await jwtVerify(
      tokens.access_token,
      jwks,
      { issuer: ISSUER, typ: 'at+jwt' },
    );
    expect(protectedHeader.alg).toBe('RS256');
    expect(typeof protectedHeader.kid).toBe('string');
    expect(payload).toMatchObject({
      sub: String(person.uid),
      aud: basic.client_id,
      client_id: basic.client_id,
      scope: 'openid profile email',
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.jti).toBe('string');
    expect(typeof payload.sid).toBe('string');

    const info = await oauth.processUserInfoResponse(
      as,
      client,
      id.sub,
      await oauth.userInfoRequest(
        as,
        client,
        tokens.access_token,
        viaInject(t),
      ),
    );
    expect(info).toMatchObject({
      sub: String(person.uid),
      preferred_username: person.username,
      name: person.username,
      email: person.email,
      email_verified: false,
    });
    const viaPost = await t.app.inject({
      method: 'POST',
      url: '/oauth/userinfo',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(viaPost.json().sub).toBe(String(person.uid));
  });

  it('userinfo reads the Bearer header the same way before and after the token was first accepted', async () => {
    const { tokens } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
    );
    const at = tokens.access_token;
    const ask = (authorization: string) =>
      t.app.inject({
        method: 'GET',
        url: '/oauth/userinfo',
        headers: { authorization },
      });
    const refusals = async () => [
      (await ask(`Bearer ${at}!`)).json(),
      (await ask(`Bearer ${at} ${at}`)).json(),
      (await ask(`Basic ${at}`)).json(),
    ];
    const before = await refusals();
    expect(before[0]).toEqual({
      error: 'invalid_token',
      error_description: 'The Authorization header is not a Bearer token',
    });
    for (const header of [
      `Bearer ${at}`,
      `bearer ${at}`,
      `BEARER   ${at}`,
      `Bearer ${at}  `,
    ]) {
      const res = await ask(header);
      expect(res.statusCode, header.slice(0, 9)).toBe(200);
      expect(res.json().sub).toBe(String(person.uid));
    }
    expect(await refusals()).toEqual(before);
    const tampered = await ask(
      `Bearer ${at.slice(0, -2)}${at.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().error_description).toBe(
      'The access token is invalid, expired or revoked',
    );
  });

  it('client_secret_post and none (public client with PKCE) each work with their own method', async () => {
    const p = await codeFlow(
      post,
      oauth.ClientSecretPost(post.client_secret!),
      'openid',
    );
    expect(
      oauth.getValidatedIdTokenClaims(p.tokens)!.preferred_username,
    ).toBeUndefined();
    const n = await codeFlow(pub, oauth.None(), 'openid profile');
    expect(oauth.getValidatedIdTokenClaims(n.tokens)!.name).toBe(
      person.username,
    );
  });

  it('a replayed code is invalid_grant and revokes the access token and refresh family it issued', async () => {
    const { tokens, code } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
    );
    const replay = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'authorization_code', code, redirect_uri: CB },
      { basic: [basic.client_id, basic.client_secret!] },
    );
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    expect(replay.headers['cache-control']).toBe('no-store');
    const info = await t.get('/oauth/userinfo', tokens.access_token);
    expect(info.statusCode).toBe(401);
    expect(info.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token"/,
    );
    const refresh = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      { basic: [basic.client_id, basic.client_secret!] },
    );
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('redirect_uri and PKCE rules: mismatch, missing or wrong verifier → invalid_grant; a seed code is never accepted', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const start = async () =>
      (
        await authorizeAsBrowser(t, person, {
          response_type: 'code',
          client_id: basic.client_id,
          redirect_uri: CB,
          scope: 'openid',
          state: 's',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        })
      ).searchParams.get('code')!;
    const cred = {
      basic: [basic.client_id, basic.client_secret!] as [string, string],
    };
    const tryCode = async (form: Record<string, string>) =>
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'authorization_code', ...form },
          cred,
        )
      ).json();
    expect(
      await tryCode({ code: await start(), code_verifier: verifier }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        code_verifier: verifier,
        redirect_uri: 'https://rp.example.com/other',
      }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({ code: await start(), redirect_uri: CB }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        redirect_uri: CB,
        code_verifier: oauth.generateRandomCodeVerifier(),
      }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        redirect_uri: CB,
        code_verifier: verifier,
      }),
    ).toMatchObject({ token_type: 'Bearer' });
    const seed = await t.post(
      '/api/v1/auth/authorize',
      { client_id: basic.client_id, redirect_uri: CB },
      person.token,
    );
    expect(
      await tryCode({ code: seed.json().data.code, redirect_uri: CB }),
    ).toMatchObject({ error: 'invalid_grant' });
    const oidcCode = await start();
    const viaSeed = await t.post('/api/v1/auth/exchange', {
      client_id: basic.client_id,
      client_secret: basic.client_secret,
      code: oidcCode,
      code_verifier: verifier,
    });
    expect(viaSeed.statusCode).toBe(400);
  });
});

describe('public clients', () => {
  it('a public client’s code without PKCE is never redeemed', async () => {
    const code = `nopkce-${Date.now()}`;
    const now = Date.now();
    await t.runtime.storage.codes.create({
      codeHash: sha256Hex(code),
      clientId: pub.client_id,
      userId: person.uid,
      redirectUri: pub.redirect_uris[0]!,
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      expiresAt: now + 60_000,
      createdAt: now,
      flow: 'oidc',
      authTime: now,
      redirectUriGiven: true,
    });
    const res = await postForm(t, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: pub.redirect_uris[0]!,
      client_id: pub.client_id,
    });
    expect([res.statusCode, res.json().error]).toEqual([400, 'invalid_grant']);
  });
});

describe('client authentication', () => {
  const form = {
    grant_type: 'authorization_code',
    code: 'nope',
    redirect_uri: CB,
  };

  it('wrong secret with Basic: 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const res = await postForm(t, '/oauth/token', form, {
      basic: [basic.client_id, 'wrong'],
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client' });
    expect(typeof res.json().error_description).toBe('string');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('Basic credentials are form-url-decoded (RFC 6749 §2.3.1)', async () => {
    const encodedId = basic.client_id.replace(
      /[a-z]/,
      (c) => `%${c.charCodeAt(0).toString(16)}`,
    );
    const header = `Basic ${Buffer.from(`${encodedId}:${encodeURIComponent(basic.client_secret!)}`).toString('base64')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: header,
      },
    });
    expect(res.json().error).toBe('invalid_grant');
  });

  it('each client only with its registered method; unknown, disabled and built-in ids are not clients', async () => {
    const viaPost = await postForm(t, '/oauth/token', {
      ...form,
      client_id: basic.client_id,
      client_secret: basic.client_secret!,
    });
    expect([
      viaPost.statusCode,
      viaPost.json().error,
      viaPost.headers['www-authenticate'],
    ]).toEqual([401, 'invalid_client', undefined]);
    const viaBasic = await postForm(t, '/oauth/token', form, {
      basic: [post.client_id, post.client_secret!],
    });
    expect([viaBasic.statusCode, viaBasic.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
    const noAuth = await postForm(t, '/oauth/token', {
      ...form,
      client_id: basic.client_id,
    });
    expect(noAuth.json().error).toBe('invalid_client');
    const pubSecret = await postForm(t, '/oauth/token', {
      ...form,
      client_id: pub.client_id,
      client_secret: 'x',
    });
    expect(pubSecret.json().error).toBe('invalid_client');
    for (const id of ['no-such-client', 'account-center', 'game']) {
      expect(
        (await postForm(t, '/oauth/token', { ...form, client_id: id })).json()
          .error,
      ).toBe('invalid_client');
    }
    const off = await createApp(t, dev, { redirect_uris: [CB] });
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id, enabled: false },
      dev.token,
    );
    const disabled = await postForm(t, '/oauth/token', form, {
      basic: [off.client_id, off.client_secret!],
    });
    expect([disabled.statusCode, disabled.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
  });
});

describe('token endpoint error rows', () => {
  const cred = () => ({
    basic: [basic.client_id, basic.client_secret!] as [string, string],
  });

  it('JSON bodies and other types are invalid_request; every answer is no-store', async () => {
    const json = await t.post('/oauth/token', {
      grant_type: 'client_credentials',
    });
    expect([
      json.statusCode,
      json.json().error,
      json.headers['cache-control'],
    ]).toEqual([400, 'invalid_request', 'no-store']);
    const text = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: 'grant_type=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.statusCode, text.json().error]).toEqual([
      400,
      'invalid_request',
    ]);
    const none = await t.app.inject({ method: 'POST', url: '/oauth/token' });
    expect([none.statusCode, none.json().error]).toEqual([
      400,
      'invalid_request',
    ]);
  });

  it('missing or repeated parameters, unknown grants, grants the client lacks', async () => {
    expect((await postForm(t, '/oauth/token', {}, cred())).json().error).toBe(
      'invalid_request',
    );
    const repeated = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: 'grant_type=a&grant_type=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.json().error).toBe('invalid_request');
    expect(
      (
        await postForm(t, '/oauth/token', { grant_type: 'password' }, cred())
      ).json().error,
    ).toBe('unsupported_grant_type');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'client_credentials' },
          cred(),
        )
      ).json().error,
    ).toBe('unauthorized_client');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'authorization_code' },
          cred(),
        )
      ).json().error,
    ).toBe('invalid_request');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'refresh_token', refresh_token: 'x' },
          cred(),
        )
      ).json().error,
    ).toBe('invalid_grant');
  });

  it('counts grants and failures in /metrics', async () => {
    const text = (await t.get('/metrics')).body;
    expect(text).toMatch(
      /oidc_token_requests_total\{grant_type="authorization_code",result="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /oidc_token_requests_total\{grant_type="[^"]+",result="invalid_client"\} [1-9]/,
    );
  });

  it('the seed API keeps its JSON-only rule', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: 'username=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('audits OIDC sign-ins like the seed does', async () => {
    const { entries } = await t.runtime.storage.audit.list(
      { action: 'login.success', actor: person.username },
      0,
      50,
    );
    expect(entries.some((e) => e.detail.method === 'oidc')).toBe(true);
  });

  it('keys and the decoded header carry the current kid', async () => {
    const { tokens } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
      'openid',
    );
    const kids = (await t.get('/oauth/jwks'))
      .json()
      .keys.map((k: { kid: string }) => k.kid);
    expect(kids).toContain(decodeProtectedHeader(tokens.id_token!).kid);
    expect(kids).toContain(decodeProtectedHeader(tokens.access_token).kid);
  });
});
