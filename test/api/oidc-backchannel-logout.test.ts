import { describe, expect, it } from 'vitest';
import { postForm, signInWithCode } from '../helpers/oidc-client.js';
import { sessionCookie } from '../helpers/oidc-pages.js';
import { jwtClaims } from '../helpers/jwt.js';
import { waitFor } from '../helpers/wait.js';
import { CB, forumAndWiki, ISSUER } from './oidc-backchannel-setup.js';

/** OpenID Connect Back-Channel Logout 1.0 (docs/api.md §12.8), to a relying party that verifies with `jose`. */
const A = '/api/v1/auth';
const { env, signInToBoth, logoutOf } = forumAndWiki();
const refresh = (token: string) =>
  postForm(
    env.t,
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: token },
    { basic: [env.forum.client_id, env.forum.client_secret!] },
  );

describe('logout tokens', () => {
  it("RP-initiated logout: the forum gets a token with the ID token's sub and sid, the wiki nothing", async () => {
    const user = await env.t.register();
    const { forumId, wikiId, forumRefresh } = await signInToBoth(user);
    expect(forumId.sid).toEqual(expect.any(String));
    expect(wikiId.sid).not.toBe(forumId.sid);
    const before = env.forumReceiver.tokens.length;
    const hint = (await signInWithCode(env.t, env.as, user, env.forum, CB))
      .id_token!;
    const res = await env.t.app.inject({
      method: 'GET',
      url: `/oauth/end_session?id_token_hint=${hint}`,
      headers: sessionCookie(user.token),
    });
    expect(res.statusCode).toBeLessThan(400);
    const token = await logoutOf(forumId.sid);
    expect(token).toMatchObject({
      iss: ISSUER,
      aud: env.forum.client_id,
      sub: forumId.sub,
      sid: forumId.sid,
    });
    expect(token.exp! - token.iat!).toBeLessThanOrEqual(120);
    expect(token).not.toHaveProperty('nonce');
    // Both forum sign-ins of that browser session are logged out; nothing names the wiki's.
    await waitFor(
      'the second forum sign-in',
      20_000,
      () => env.forumReceiver.tokens.length >= before + 2,
    );
    expect(
      env.forumReceiver.tokens.filter(
        (p) => p.sid === wikiId.sid || p.aud !== env.forum.client_id,
      ),
    ).toEqual([]);
    expect((await refresh(forumRefresh)).json().error).toBe('invalid_grant');
    expect(
      env.forumReceiver.contentTypes.every(
        (c) => c === 'application/x-www-form-urlencoded',
      ),
    ).toBe(true);
    expect(env.forumReceiver.rejected).toEqual([]);
  });

  it('signing out at the center: a sign-in granted offline_access is told but keeps its refresh token', async () => {
    const user = await env.t.register();
    const online = await signInWithCode(env.t, env.as, user, env.forum, CB);
    const offline = await signInWithCode(
      env.t,
      env.as,
      user,
      env.forum,
      CB,
      'openid offline_access',
    );
    expect((await env.t.post(`${A}/logout`, {}, user.token)).statusCode).toBe(
      200,
    );
    await logoutOf(jwtClaims(online.id_token!).sid);
    await logoutOf(jwtClaims(offline.id_token!).sid);
    expect((await refresh(online.refresh_token!)).json().error).toBe(
      'invalid_grant',
    );
    expect((await refresh(offline.refresh_token!)).statusCode).toBe(200);
  });

  it('logout everywhere', async () => {
    const user = await env.t.register();
    const { forumId } = await signInToBoth(user);
    expect(
      (await env.t.post(`${A}/logout`, { all: true }, user.token)).statusCode,
    ).toBe(200);
    expect(await logoutOf(forumId.sid)).toMatchObject({
      sub: String(user.uid),
      aud: env.forum.client_id,
    });
  });

  it('a ban', async () => {
    const admin = await env.t.admin();
    const user = await env.t.register();
    const { forumId } = await signInToBoth(user);
    expect(
      (
        await env.t.post(
          `${A}/admin/users/ban`,
          { username: user.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await logoutOf(forumId.sid)).toMatchObject({
      sub: String(user.uid),
    });
  });

  it('consent withdrawn for the env.forum, and is retried until the client answers', async () => {
    const user = await env.t.register();
    const { forumId } = await signInToBoth(user);
    env.forumReceiver.failNext(1);
    expect(
      (
        await env.t.post(
          `${A}/account/authorized_apps/revoke`,
          { client_id: env.forum.client_id },
          user.token,
        )
      ).statusCode,
    ).toBe(200);
    const token = await waitFor(
      'the retried logout token',
      30_000,
      () => env.forumReceiver.forSid(forumId.sid)[0],
    );
    expect(token.sub).toBe(String(user.uid));
  });

  it('a person signed in to no client with an address sends nothing', async () => {
    const user = await env.t.register();
    const w = await signInWithCode(env.t, env.as, user, env.wiki, CB);
    expect(
      (await env.t.post(`${A}/logout`, { all: true }, user.token)).statusCode,
    ).toBe(200);
    expect(await refreshWiki(w.refresh_token!)).toBe('invalid_grant');
    // A forum user logged out afterwards: once their token is in, the first one's would be too.
    const marker = await env.t.register();
    const { forumId } = await signInToBoth(marker);
    expect(
      (await env.t.post(`${A}/logout`, { all: true }, marker.token)).statusCode,
    ).toBe(200);
    await logoutOf(forumId.sid);
    expect(
      env.forumReceiver.tokens.filter((p) => p.sub === String(user.uid)),
    ).toEqual([]);
  });
});

const refreshWiki = async (token: string) =>
  (
    await postForm(
      env.t,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: token },
      { basic: [env.wiki.client_id, env.wiki.client_secret!] },
    )
  ).json().error;
