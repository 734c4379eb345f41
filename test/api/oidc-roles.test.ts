import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { freePort } from '../helpers/net.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { authorizeOverHttp } from '../helpers/oidc-client.js';
import { authorizeGet, location } from '../helpers/oidc-pages.js';

/**
 * The `roles` scope and claim read by a real relying party (openid-client v6 over HTTP), and an
 * app limited to roles refusing before consent (docs/oidc.md).
 */
const A = '/api/v1/auth';
const CB = 'http://127.0.0.1:9/cb';
let t: TestApp;
let issuer: string;
let admin: TestUser;
let rp: CreatedApp;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    BASE_URL: issuer,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  admin = await t.admin();
  await t.post(
    `${A}/admin/roles`,
    { name: 'moderator', display_name: '版主', display_name_en: 'Moderator' },
    admin.token,
  );
  rp = await createApp(t, admin, {
    display_name: 'Forum',
    redirect_uris: [CB],
    grant_types: ['authorization_code', 'refresh_token'],
  });
});
afterAll(async () => {
  await t.close();
});

const setRoles = (username: string, roles: string[]) =>
  t.post(`${A}/admin/users/roles`, { username, roles }, admin.token);
const requireRoles = (roles: string[]) =>
  t.post(
    `${A}/apps/update`,
    { client_id: rp.client_id, required_roles: roles },
    admin.token,
  );
const config = () =>
  client.discovery(
    new URL(issuer),
    rp.client_id,
    undefined,
    client.ClientSecretBasic(rp.client_secret!),
    { execute: [client.allowInsecureRequests] },
  );

/** The code flow as openid-client runs it, the person's browser consenting. */
async function signIn(
  person: TestUser,
  scope: string,
): Promise<client.TokenEndpointResponse & client.TokenEndpointResponseHelpers> {
  const c = await config();
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(c, {
    redirect_uri: CB,
    scope,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const callback = await authorizeOverHttp(issuer, person.token, url);
  return client.authorizationCodeGrant(c, callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
}

describe('the roles scope', () => {
  it('is in discovery, with the roles claim', async () => {
    const meta = (await config()).serverMetadata();
    expect(meta.scopes_supported).toContain('roles');
    expect(meta.claims_supported).toContain('roles');
  });

  it('puts roles in the ID token, UserInfo and introspection; current where answered live', async () => {
    const person = await t.register();
    await setRoles(person.username, ['player', 'moderator']);
    const tokens = await signIn(person, 'openid profile roles offline_access');
    expect(tokens.claims()!.roles).toEqual(['player', 'moderator']);
    const c = await config();
    const sub = String(person.uid);
    expect(
      (await client.fetchUserInfo(c, tokens.access_token, sub)).roles,
    ).toEqual(['player', 'moderator']);

    await setRoles(person.username, ['player']);
    expect(
      (await client.fetchUserInfo(c, tokens.access_token, sub)).roles,
    ).toEqual(['player']);
    expect(
      (await client.tokenIntrospection(c, tokens.access_token)).roles,
    ).toEqual(['player']);
    // The ID token keeps what it was issued with; a refresh gives the current roles.
    const refreshed = await client.refreshTokenGrant(c, tokens.refresh_token!);
    expect(refreshed.claims()!.roles).toEqual(['player']);
  });

  it('gives no roles claim without the scope', async () => {
    const person = await t.register();
    const tokens = await signIn(person, 'openid profile');
    expect(tokens.claims()!).not.toHaveProperty('roles');
    const info = await client.fetchUserInfo(
      await config(),
      tokens.access_token,
      String(person.uid),
    );
    expect(info).not.toHaveProperty('roles');
  });
});

describe('an app limited to roles', () => {
  it('refuses before consent with a page naming the app, in the person’s language', async () => {
    await requireRoles(['moderator']);
    try {
      const player = await t.register();
      const params = {
        response_type: 'code',
        client_id: rp.client_id,
        redirect_uri: CB,
        scope: 'openid',
        state: 's1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      };
      const zh = await authorizeGet(t, params, player.token);
      expect(zh.statusCode).toBe(403);
      expect(zh.body).toContain('无权使用该应用');
      expect(zh.body).toContain('“Forum”');
      expect(zh.body).toContain('管理员');
      const back = new URL(
        /id="back-to-app" href="([^"]+)"/
          .exec(zh.body)![1]!
          .replace(/&amp;/g, '&'),
      );
      expect(back.origin + back.pathname).toBe(CB);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('s1');
      const en = await t.app.inject({
        method: 'GET',
        url: `/oauth/authorize?${new URLSearchParams(params)}`,
        headers: {
          cookie: `ac_session=${player.token}; lang=en`,
        },
      });
      expect(en.statusCode).toBe(403);
      expect(en.body).toContain('You may not use this application');
      expect(en.body).toContain('administrator');
      // prompt=none shows nothing: the app is told access_denied at once.
      const none = location(
        await authorizeGet(t, { ...params, prompt: 'none' }, player.token),
      );
      expect(none.searchParams.get('error')).toBe('access_denied');
    } finally {
      await requireRoles([]);
    }
  });

  it('answers invalid_grant to a refresh once the role is gone', async () => {
    const person = await t.register();
    await setRoles(person.username, ['player', 'moderator']);
    await requireRoles(['moderator']);
    try {
      const tokens = await signIn(person, 'openid offline_access');
      const c = await config();
      await setRoles(person.username, ['player']);
      await expect(
        client.refreshTokenGrant(c, tokens.refresh_token!),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      // Given back before the refresh token expires, it works again.
      await setRoles(person.username, ['player', 'moderator']);
      const again = await client.refreshTokenGrant(c, tokens.refresh_token!);
      expect(again.access_token).toBeTruthy();
    } finally {
      await requireRoles([]);
    }
  });

  it('refuses device approval and says so on inspection', async () => {
    await requireRoles(['moderator']);
    try {
      const start = await t.post(`${A}/device/start`, {
        client_id: rp.client_id,
      });
      const userCode = start.json().data.user_code;
      const player = await t.register();
      const seen = await t.post(
        `${A}/device/inspect`,
        { user_code: userCode },
        player.token,
      );
      expect(seen.json().data).toMatchObject({
        client_id: rp.client_id,
        allowed: false,
      });
      expect(
        failure(
          await t.post(
            `${A}/device/approve`,
            { user_code: userCode },
            player.token,
          ),
        ),
      ).toEqual([403, refusal('无权使用该应用')]);
    } finally {
      await requireRoles([]);
    }
  });
});
