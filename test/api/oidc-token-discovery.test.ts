import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, injectFetch, viaInject } from '../helpers/oidc-client.js';
import { CB, ISSUER, tokenCodeFlow } from './oidc-token-setup.js';

let t: TestApp;
let dev: TestUser;
let person: TestUser;
let as: oauth.AuthorizationServer;
let basic: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: `${ISSUER}/` });
  dev = await t.register();
  person = await t.register();
  basic = await createApp(t, dev, { redirect_uris: [CB] });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const codeFlow = tokenCodeFlow(() => ({ t, person, as }));

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
});
