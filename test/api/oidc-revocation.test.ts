import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { authorizeCode, createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, postForm, viaInject } from '../helpers/oidc-client.js';
import { auth, CB, cred, ISSUER, tokenLife } from './oidc-refresh-setup.js';

let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let rp: CreatedApp;
let other: CreatedApp;
let rs: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
  dev = await t.register();
  rp = await createApp(t, dev, { redirect_uris: [CB] });
  other = await createApp(t, dev, { redirect_uris: [CB] });
  rs = await createApp(t, dev, {
    redirect_uris: [CB],
    token_endpoint_auth_method: 'client_secret_post',
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const { signIn, refresh, introspect, userinfo } = tokenLife(() => ({
  t,
  as,
  rp,
}));

describe('what ends tokens', () => {
  it('ban (admin API): refresh, userinfo and introspection refuse at once', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    const admin = await t.admin();
    expect(
      (
        await t.post(
          '/api/v1/auth/admin/users/ban',
          { username: user.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    expect((await refresh(tokens.refresh_token!)).json().error).toBe(
      'invalid_grant',
    );
  });

  it('logout-all and password reset cut off refresh tokens and access tokens', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    await t.post('/api/v1/auth/logout', { all: true }, user.token);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token!)).json().error).toBe(
      'invalid_grant',
    );
  });

  it('a disabled app: its tokens stop at userinfo and its refresh fails', async () => {
    const user = await t.register();
    const app3 = await createApp(t, dev, { redirect_uris: [CB] });
    const tokens = await signIn(user, app3);
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: app3.client_id, enabled: false },
      dev.token,
    );
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect((await introspect(tokens.access_token)).active).toBe(false);
    expect((await refresh(tokens.refresh_token!, app3)).json().error).toBe(
      'invalid_client',
    );
  });

  it('consent revocation (revoking the families of a user and client) ends refresh and access tokens', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    expect(
      (
        await t.post(
          '/api/v1/auth/account/authorized_apps/revoke',
          { client_id: rp.client_id },
          user.token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token!)).json().error).toBe(
      'invalid_grant',
    );
  });
});

describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
  it('revoking an access token is seen by userinfo and introspection at once', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    const before = await introspect(tokens.access_token);
    expect(before).toMatchObject({
      active: true,
      client_id: rp.client_id,
      username: user.username,
      sub: String(user.uid),
      iss: ISSUER,
      scope: 'openid profile email',
      token_type: 'Bearer',
    });
    for (const k of ['exp', 'iat', 'jti', 'aud'])
      expect(before[k]).toBeDefined();
    const c = { client_id: rp.client_id };
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        as,
        c,
        auth(rp),
        tokens.access_token,
        viaInject(t),
      ),
    );
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
  });

  it('revoking a refresh token ends its family and the access tokens issued from it', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    expect(await introspect(tokens.refresh_token!)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      client_id: rp.client_id,
      username: user.username,
    });
    const res = await postForm(
      t,
      '/oauth/revoke',
      { token: tokens.refresh_token!, token_type_hint: 'refresh_token' },
      cred(rp),
    );
    expect(res.statusCode).toBe(200);
    expect(await introspect(tokens.refresh_token!)).toEqual({ active: false });
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token!)).json().error).toBe(
      'invalid_grant',
    );
  });

  it('unknown tokens get 200; other clients cannot revoke; revocation requires client authentication', async () => {
    expect(
      (await postForm(t, '/oauth/revoke', { token: 'unknown-token' }, cred(rp)))
        .statusCode,
    ).toBe(200);
    const user = await t.register();
    const tokens = await signIn(user);
    expect(
      (
        await postForm(
          t,
          '/oauth/revoke',
          { token: tokens.refresh_token! },
          cred(other),
        )
      ).statusCode,
    ).toBe(200);
    expect((await refresh(tokens.refresh_token!)).statusCode).toBe(200);
    const anon = await postForm(t, '/oauth/revoke', {
      token: tokens.access_token,
    });
    expect([anon.statusCode, anon.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
    const missing = await postForm(t, '/oauth/revoke', {}, cred(rp));
    expect(missing.json().error).toBe('invalid_request');
  });

  it('introspection through oauth4webapi; the seed HS256 tokens of the client are checked like `me`', async () => {
    const user = await t.register();
    const code = await authorizeCode(t, user, {
      client_id: rs.client_id,
      redirect_uri: CB,
    });
    const v1 = (
      await t.post('/api/v1/auth/exchange', {
        client_id: rs.client_id,
        client_secret: rs.client_secret,
        code,
      })
    ).json().access_token as string;
    const c = { client_id: rs.client_id };
    const seed = await oauth.processIntrospectionResponse(
      as,
      c,
      await oauth.introspectionRequest(
        as,
        c,
        oauth.ClientSecretPost(rs.client_secret!),
        v1,
        viaInject(t),
      ),
    );
    expect(seed).toMatchObject({
      active: true,
      username: user.username,
      client_id: rs.client_id,
    });
    // The center's own first-party token was issued to no client.
    expect(await introspect(user.token, rs)).toEqual({ active: false });
    await t.post('/api/v1/auth/logout', {}, v1);
    expect(await introspect(v1, rs)).toEqual({ active: false });
    expect(await introspect('garbage')).toEqual({ active: false });
    expect(await introspect('a.b.c')).toEqual({ active: false });
    const pub = await createApp(t, dev, {
      client_type: 'public',
      redirect_uris: [CB],
    });
    const denied = await postForm(t, '/oauth/introspect', {
      token: 'x',
      client_id: pub.client_id,
    });
    expect([denied.statusCode, denied.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
  });

  it('userinfo without a token or with a malformed one: 401 invalid_token', async () => {
    const none = await t.get('/oauth/userinfo');
    expect([none.statusCode, none.json().error]).toEqual([
      401,
      'invalid_token',
    ]);
    expect(none.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token"/,
    );
    const bad = await t.get('/oauth/userinfo', 'not-a-jwt');
    expect(bad.statusCode).toBe(401);
    const user = await t.register();
    const seedToken = await t.get('/oauth/userinfo', user.token);
    expect(seedToken.statusCode).toBe(401);
  });
});
