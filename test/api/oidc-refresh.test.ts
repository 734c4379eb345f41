import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { authorizeCode, createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeAsBrowser,
  discover,
  postForm,
  signInWithCode,
  viaInject,
} from '../helpers/oidc-client.js';
import {
  randomToken,
  sha256Hex,
  timedSecretKey,
} from '../../src/platform/crypto/random.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
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

const auth = (c: CreatedApp) => oauth.ClientSecretBasic(c.client_secret!);
const cred = (c: CreatedApp) => ({
  basic: [c.client_id, c.client_secret!] as [string, string],
});

const signIn = (user: TestUser, client = rp, scope = 'openid profile email') =>
  signInWithCode(t, as, user, client, CB, scope);

const refresh = (
  token: string,
  client = rp,
  extra: Record<string, string> = {},
) =>
  postForm(
    t,
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: token, ...extra },
    cred(client),
  );
/** Introspection by the client the token was issued to (only it learns anything, RFC 7662 §4). */
const introspect = async (token: string, client = rp) => {
  const post = client.token_endpoint_auth_method === 'client_secret_post';
  const form: Record<string, string> = post
    ? {
        token,
        client_id: client.client_id,
        client_secret: client.client_secret!,
      }
    : { token };
  return (
    await postForm(t, '/oauth/introspect', form, post ? {} : cred(client))
  ).json();
};
const userinfo = (token: string) => t.get('/oauth/userinfo', token);

describe('refresh tokens', () => {
  it('rotate through oauth4webapi; a narrower scope may be asked, a wider one not', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const c = { client_id: rp.client_id };
    const second = await oauth.processRefreshTokenResponse(
      as,
      c,
      await oauth.refreshTokenGrantRequest(
        as,
        c,
        auth(rp),
        first.refresh_token!,
        viaInject(t),
      ),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('openid profile email');
    expect(oauth.getValidatedIdTokenClaims(second)!.sub).toBe(String(user.uid));
    const narrow = await refresh(second.refresh_token!, rp, {
      scope: 'openid',
    });
    expect(narrow.statusCode).toBe(200);
    expect(narrow.headers['cache-control']).toBe('no-store');
    expect(narrow.json().scope).toBe('openid');
    // The new refresh token keeps the whole grant (RFC 6749 §6).
    const wide = await refresh(narrow.json().refresh_token, rp, {
      scope: 'openid offline_access',
    });
    expect(wide.json().error).toBe('invalid_scope');
    expect((await refresh(narrow.json().refresh_token)).json().scope).toBe(
      'openid profile email',
    );
  });

  it('reuse of a rotated token is invalid_grant and revokes the whole family, access tokens included', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const second = (await refresh(first.refresh_token!)).json();
    const reuse = await refresh(first.refresh_token!);
    expect([reuse.statusCode, reuse.json().error]).toEqual([
      400,
      'invalid_grant',
    ]);
    expect((await refresh(second.refresh_token)).json().error).toBe(
      'invalid_grant',
    );
    expect((await userinfo(second.access_token)).statusCode).toBe(401);
    expect((await introspect(second.access_token)).active).toBe(false);
    const { entries } = await t.runtime.storage.audit.list(
      { action: 'refresh.reuse' },
      0,
      10,
    );
    expect(entries.length).toBeGreaterThanOrEqual(1);
  });

  it('is bound to its client', async () => {
    const user = await t.register();
    const first = await signIn(user);
    expect((await refresh(first.refresh_token!, other)).json().error).toBe(
      'invalid_grant',
    );
    expect((await refresh(first.refresh_token!)).statusCode).toBe(200);
  });

  it('two concurrent refreshes of one token: exactly one succeeds; 50 in parallel: one', async () => {
    const user = await t.register();
    const a = await signIn(user);
    const two = await Promise.all([
      refresh(a.refresh_token!),
      refresh(a.refresh_token!),
    ]);
    expect(two.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const b = await signIn(user);
    const fifty = await Promise.all(
      Array.from({ length: 50 }, () => refresh(b.refresh_token!)),
    );
    expect(fifty.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of fifty.filter((x) => x.statusCode !== 200))
      expect(r.json().error).toBe('invalid_grant');
    // The racing losers did not take the winner's fresh tokens down with them.
    const winner = fifty.find((r) => r.statusCode === 200)!.json();
    const seen = await userinfo(winner.access_token);
    expect([seen.statusCode, seen.headers['cache-control']]).toEqual([
      200,
      'no-store',
    ]);
    expect((await refresh(winner.refresh_token)).statusCode).toBe(200);
  });

  it('carry the time first, sorting as issued; a token stored under its plain hash (issued before) still works', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const second = (await refresh(first.refresh_token!)).json();
    for (const token of [first.refresh_token!, second.refresh_token])
      expect(token).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect(
      Buffer.compare(
        Buffer.from(first.refresh_token!.slice(0, 7)),
        Buffer.from(second.refresh_token.slice(0, 7)),
      ),
    ).toBeLessThanOrEqual(0);

    const stored = (await t.runtime.storage.refreshTokens.findByHash(
      timedSecretKey(second.refresh_token),
    ))!;
    const legacy = randomToken(32);
    await t.runtime.storage.refreshTokens.create({
      tokenHash: sha256Hex(legacy),
      familyId: stored.familyId,
      clientId: stored.clientId,
      userId: stored.userId,
      scope: stored.scope,
      authTime: stored.authTime,
      createdAt: stored.createdAt,
      expiresAt: stored.expiresAt,
    });
    expect((await introspect(legacy)).active).toBe(true);
    const rotated = await refresh(legacy);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().refresh_token).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect((await introspect(legacy)).active).toBe(false);
    expect(
      (
        await postForm(
          t,
          '/oauth/revoke',
          { token: rotated.json().refresh_token },
          cred(rp),
        )
      ).statusCode,
    ).toBe(200);
    expect((await refresh(rotated.json().refresh_token)).json().error).toBe(
      'invalid_grant',
    );
  });

  it('expires after REFRESH_TOKEN_TTL', async () => {
    let clock = Date.now();
    const t2 = await createTestApp(
      { BASE_URL: ISSUER, REFRESH_TOKEN_TTL: '60' },
      { now: () => clock },
    );
    try {
      const owner = await t2.register();
      const app2 = await createApp(t2, owner, { redirect_uris: [CB] });
      const code = (
        await authorizeAsBrowser(t2, owner, {
          response_type: 'code',
          client_id: app2.client_id,
          redirect_uri: CB,
          scope: 'openid',
        })
      ).searchParams.get('code')!;
      const tokens = (
        await postForm(
          t2,
          '/oauth/token',
          { grant_type: 'authorization_code', code, redirect_uri: CB },
          cred(app2),
        )
      ).json();
      clock += 61_000;
      expect(
        (
          await postForm(
            t2,
            '/oauth/token',
            {
              grant_type: 'refresh_token',
              refresh_token: tokens.refresh_token,
            },
            cred(app2),
          )
        ).json().error,
      ).toBe('invalid_grant');
    } finally {
      await t2.close();
    }
  });
});

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
