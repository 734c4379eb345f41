import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { TestUser } from '../helpers/app.js';
import {
  startOidcUpstream,
  type OidcUpstream,
} from '../helpers/upstream/oidc-upstream.js';
import {
  listeningCenter,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  callbackAddress,
  CookieJar,
  finish,
  signInThrough,
  throughProvider,
  userCount,
  visitCallback,
} from '../helpers/upstream/flow.js';
import { createApp, pkcePair } from '../helpers/oauth.js';
import { authorizeAsBrowser, postForm } from '../helpers/oidc-client.js';

/**
 * Sign-in with a generic OpenID Connect provider (docs/api.md §14) against a real one,
 * panva's oidc-provider: discovery, code + PKCE + nonce, the ID token checked by openid-client,
 * and the account rules of §14.3 on both databases.
 */
let center: ListeningCenter;
let upstream: OidcUpstream;
let admin: TestUser;
const A = '/api/v1/auth';

beforeAll(async () => {
  center = await listeningCenter();
  upstream = await startOidcUpstream(
    ['corp', 'google', 'microsoft'].map(
      (id) => `${center.baseUrl}/login/${id}/callback`,
    ),
  );
  admin = await center.admin();
  await addProvider(center, admin, {
    id: 'corp',
    type: 'oidc',
    name: 'Corp SSO',
    client_id: upstream.clientId,
    client_secret: upstream.clientSecret,
    issuer: upstream.issuer,
  });
});
afterAll(async () => {
  await upstream?.close();
  await center?.close();
});

describe('providers', () => {
  it('lists enabled providers for the sign-in buttons, and never a secret to administrators', async () => {
    const buttons = await center.get(`${A}/upstream/providers`);
    expect(buttons.json()).toEqual({
      ok: true,
      data: { providers: [{ id: 'corp', name: 'Corp SSO', type: 'oidc' }] },
    });
    const list = (await center.get(`${A}/admin/providers`, admin.token)).json()
      .data.providers;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: 'corp',
      has_client_secret: true,
      callback_url: `${center.baseUrl}/login/corp/callback`,
      scopes: 'openid profile email',
      enabled: true,
    });
    expect(JSON.stringify(list)).not.toContain(upstream.clientSecret);
  });

  it('refuses bad settings with 参数错误 naming the field, and a taken id', async () => {
    const bad = await center.post(
      `${A}/admin/providers`,
      {
        id: 'X!',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: upstream.issuer,
      },
      admin.token,
    );
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：id' },
    ]);
    const noIssuer = await center.post(
      `${A}/admin/providers`,
      { id: 'x2', type: 'oidc', name: 'x', client_id: 'c', client_secret: 's' },
      admin.token,
    );
    expect(noIssuer.json()).toEqual({ ok: false, msg: '参数错误：issuer' });
    const plainHttp = await center.post(
      `${A}/admin/providers`,
      {
        id: 'x3',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: 'http://example.com',
      },
      admin.token,
    );
    expect(plainHttp.json()).toEqual({ ok: false, msg: '参数错误：issuer' });
    // A NUL is refused like any other bad character: PostgreSQL would not store it.
    for (const field of ['issuer', 'token_endpoint']) {
      const nul = await center.post(
        `${A}/admin/providers`,
        {
          id: 'x4',
          type: 'oidc',
          name: 'x',
          client_id: 'c',
          client_secret: 's',
          issuer: upstream.issuer,
          [field]: `${upstream.issuer}/a\u0000b`,
        },
        admin.token,
      );
      expect([nul.statusCode, nul.json()]).toEqual([
        400,
        { ok: false, msg: `参数错误：${field}` },
      ]);
    }
    const taken = await center.post(
      `${A}/admin/providers`,
      {
        id: 'corp',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: upstream.issuer,
      },
      admin.token,
    );
    expect([taken.statusCode, taken.json()]).toEqual([
      409,
      { ok: false, msg: '登录方式标识已存在' },
    ]);
    const player = await center.register();
    expect(
      (await center.get(`${A}/admin/providers`, player.token)).json(),
    ).toEqual({ ok: false, msg: '需要管理员权限' });
  });
});

describe('sign-in', () => {
  it('creates an account at the first sign-in and finds it at the second', async () => {
    upstream.signInAs('sub-alice', {
      preferred_username: 'alice.w',
      name: 'Alice W',
      email: 'alice.w@corp.example',
      email_verified: true,
    });
    const first = await signInThrough(center, 'corp');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      expires_in: 604800,
    });
    expect(first.body.user).toEqual({
      uid: first.body.user.uid,
      username: 'alice_w',
      display_name: 'Alice W',
      email: 'alice.w@corp.example',
      roles: ['player'],
    });
    const me = (await center.get(`${A}/me`, first.body.access_token)).json()
      .data;
    expect(me).toMatchObject({ email_verified: true, app: 'account-center' });

    const again = await signInThrough(center, 'corp');
    expect(again.body.user.uid).toBe(first.body.user.uid);
    const links = (
      await center.get(`${A}/account/upstream`, again.body.access_token)
    ).json().data;
    expect(links.links).toEqual([
      expect.objectContaining({
        provider: 'corp',
        provider_name: 'Corp SSO',
        provider_type: 'oidc',
        display_name: 'Alice W',
      }),
    ]);
    expect(links.has_password).toBe(false);
  });

  it('makes the username valid and unique, and takes no unverified e-mail', async () => {
    upstream.signInAs('sub-alice-2', {
      preferred_username: 'alice.w',
      name: 'Another Alice',
      email: 'other@corp.example',
      email_verified: false,
    });
    const second = await signInThrough(center, 'corp');
    expect(second.body.user).toMatchObject({
      username: 'alice_w_2',
      display_name: 'Another Alice',
      email: '',
    });
    upstream.signInAs('sub-zh', { preferred_username: '张三', name: '张三' });
    const chinese = await signInThrough(center, 'corp');
    expect(chinese.body.user).toMatchObject({
      username: 'oidc_user',
      display_name: '张三',
      email: '',
    });
  });

  it('never links an account with the same e-mail by itself: the person proves that account first', async () => {
    const owner = await center.register({ email: 'owner@corp.example' });
    upstream.signInAs('sub-owner', {
      preferred_username: 'owner',
      email: 'owner@corp.example',
      email_verified: true,
    });
    const before = await userCount(center, admin);
    const jar = new CookieJar();
    const page = await throughProvider(center, 'corp', jar);
    expect(page).toMatchObject({
      status: 200,
      result: 'email_exists',
      email: 'owner@corp.example',
      provider: 'Corp SSO',
    });
    expect(await userCount(center, admin)).toBe(before);
    expect(
      (await center.get(`${A}/account/upstream`, owner.token)).json().data
        .links,
    ).toEqual([]);
    // A token alone is no proof, old or fresh; nor is the ticket in another browser.
    expect(
      (
        await postJson(
          center,
          `${A}/upstream/link_existing`,
          { ticket: page.ticket },
          jar,
          owner.token,
        )
      ).body,
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    const fresh = (
      await center.post(`${A}/login`, {
        username: owner.username,
        password: owner.password,
      })
    ).json().access_token;
    expect(
      (
        await postJson(
          center,
          `${A}/upstream/link_existing`,
          { ticket: page.ticket },
          jar,
          fresh,
        )
      ).body,
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    const proof = { ticket: page.ticket, current_password: owner.password };
    expect(
      (
        await postJson(
          center,
          `${A}/upstream/link_existing`,
          proof,
          new CookieJar(),
          fresh,
        )
      ).body,
    ).toEqual({ ok: false, msg: '第三方登录已失效，请重新登录' });
    const linked = await postJson(
      center,
      `${A}/upstream/link_existing`,
      proof,
      jar,
      fresh,
    );
    expect(linked.body).toEqual({
      ok: true,
      data: { provider: 'corp', provider_name: 'Corp SSO' },
    });
    expect(
      (await postJson(center, `${A}/upstream/link_existing`, proof, jar, fresh))
        .body,
    ).toEqual({ ok: false, msg: '第三方登录已失效，请重新登录' });
    const next = await signInThrough(center, 'corp');
    expect(next.body.user.uid).toBe(owner.uid);
  });

  it('asks for the second factor after the provider, as after a password', async () => {
    const person = await center.register();
    const setup = (
      await center.post(
        `${A}/account/totp/setup`,
        { current_password: person.password },
        person.token,
      )
    ).json().data;
    const recovery = (
      await center.post(
        `${A}/account/totp/enable`,
        { code: await generate({ secret: setup.secret }) },
        person.token,
      )
    ).json().data.recovery_codes;
    upstream.signInAs('sub-2fa', { preferred_username: 'twofa' });
    const jar = new CookieJar();
    const link = await postJson(
      center,
      `${A}/account/upstream/link`,
      { provider: 'corp', current_password: person.password, otp: recovery[0] },
      jar,
      person.token,
    );
    expect(link.status).toBe(200);
    const linked = await visitCallback(
      new URL(link.body.data.url, center.baseUrl),
      jar,
    );
    expect(linked.url.pathname).toBe('/account');
    expect(linked.url.search).toBe('?linked=corp');

    const page = await throughProvider(center, 'corp', jar);
    expect((await finish(center, page.ticket, jar)).body).toEqual({
      ok: false,
      msg: '需要两步验证',
    });
    expect((await finish(center, page.ticket, jar, '000000')).body).toEqual({
      ok: false,
      msg: '两步验证码错误',
    });
    const done = await finish(
      center,
      page.ticket,
      jar,
      await generate({
        secret: setup.secret,
        epoch: Math.floor(Date.now() / 1000) + 30,
      }),
    );
    expect(done.status).toBe(200);
    expect(done.body.user.uid).toBe(person.uid);
  });
});

describe('the google and microsoft presets', () => {
  it('need no issuer, and sign in as oidc does when the issuer is overridden', async () => {
    for (const type of ['google', 'microsoft']) {
      const body = {
        id: `${type}-preset`,
        type,
        name: type,
        client_id: 'c',
        client_secret: 's',
        enabled: false,
      };
      expect(await addProvider(center, admin, body)).toMatchObject({
        type,
        issuer: null,
        scopes: 'openid profile email',
      });
      await addProvider(center, admin, {
        id: type,
        type,
        name: type,
        client_id: upstream.clientId,
        client_secret: upstream.clientSecret,
        issuer: upstream.issuer,
      });
      upstream.signInAs(`sub-${type}`, {
        preferred_username: `${type}.person`,
        name: `${type} person`,
        email: `${type}@mail.example`,
        email_verified: true,
      });
      const first = await signInThrough(center, type);
      expect(first.body.user).toMatchObject({
        username: `${type}_person`,
        email: `${type}@mail.example`,
      });
      expect((await signInThrough(center, type)).body.user.uid).toBe(
        first.body.user.uid,
      );
      await center.post(
        `${A}/admin/providers/status`,
        { id: type, enabled: false },
        admin.token,
      );
    }
  });
});

describe('tokens after an upstream sign-in', () => {
  /** An OpenID Connect client of the center signs the person in with the center's session: the ID token's claims. */
  async function idTokenClaims(
    token: string,
  ): Promise<Record<string, unknown>> {
    const dev = await center.register();
    const rp = await createApp(center, dev, {
      redirect_uris: ['https://rp.example/cb'],
    });
    const { verifier, challenge } = pkcePair();
    const callback = await authorizeAsBrowser(center, { token } as TestUser, {
      response_type: 'code',
      client_id: rp.client_id,
      redirect_uri: 'https://rp.example/cb',
      scope: 'openid profile',
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await postForm(
      center,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: 'https://rp.example/cb',
        code_verifier: verifier,
      },
      { basic: [rp.client_id, rp.client_secret!] },
    );
    expect(res.statusCode).toBe(200);
    const idToken = res.json().id_token as string;
    const refreshed = await postForm(
      center,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: res.json().refresh_token },
      { basic: [rp.client_id, rp.client_secret!] },
    );
    const again = JSON.parse(
      Buffer.from(
        (refreshed.json().id_token as string).split('.')[1]!,
        'base64url',
      ).toString(),
    );
    const claims = JSON.parse(
      Buffer.from(idToken.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(again.amr).toEqual(claims.amr);
    return claims;
  }

  it('an OpenID Connect client gets amr ["fed"]; a password sign-in stays without amr', async () => {
    upstream.signInAs('sub-fed', { preferred_username: 'federated' });
    const viaUpstream = await signInThrough(center, 'corp');
    expect(await idTokenClaims(viaUpstream.body.access_token)).toMatchObject({
      amr: ['fed'],
      sub: String(viaUpstream.body.user.uid),
      nonce: 'n',
    });
    const person = await center.register();
    expect((await idTokenClaims(person.token)).amr).toBeUndefined();
  });

  it('the token is first-party like a password sign-in: game token, refresh, device approval, the session listed', async () => {
    upstream.signInAs('sub-game', { preferred_username: 'gamer' });
    const signedIn = await signInThrough(center, 'corp');
    const game = await center.post(
      `${A}/game_token`,
      undefined,
      signedIn.body.access_token,
    );
    expect(game.json()).toMatchObject({ ok: true, expires_in: 2592000 });
    expect(
      (await center.post(`${A}/refresh`, undefined, signedIn.body.access_token))
        .statusCode,
    ).toBe(200);
    const device = (await center.post(`${A}/device/start`, {})).json().data;
    expect(
      (
        await center.post(
          `${A}/device/approve`,
          { user_code: device.user_code },
          signedIn.body.access_token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await center.post(`${A}/device/poll`, {
          device_code: device.device_code,
        })
      ).json().user.uid,
    ).toBe(signedIn.body.user.uid);
    const sessions = (
      await center.get(`${A}/account/sessions`, signedIn.body.access_token)
    ).json().data.sessions;
    expect(sessions.some((s: { current: boolean }) => s.current)).toBe(true);
    const audit = (
      await center.get(
        `${A}/admin/audit?action=login.success&target=${signedIn.body.user.username}`,
        admin.token,
      )
    ).json().data.entries;
    expect(audit[0].detail).toEqual({ method: 'upstream:corp' });
  });
});

describe('refusals', () => {
  it('a replayed state, a callback in another browser and a provider error show a page and create nothing', async () => {
    upstream.signInAs('sub-refused', { preferred_username: 'refused' });
    const before = await userCount(center, admin);
    const jar = new CookieJar();
    const address = await callbackAddress(center, 'corp', jar);
    const elsewhere = await visitCallback(address, new CookieJar());
    expect(elsewhere).toMatchObject({
      status: 400,
      result: 'error',
      message:
        '登录请求已失效，或不是在这个浏览器中发起的。请返回登录页重新开始。',
    });
    const once = await visitCallback(address, jar);
    expect(once.result).toBe('signin');
    const replay = await visitCallback(address, jar);
    expect(replay).toMatchObject({ status: 400, result: 'error' });

    const jar2 = new CookieJar();
    const second = await callbackAddress(center, 'corp', jar2);
    const denied = new URL(
      `/login/corp/callback?error=access_denied&state=${second.searchParams.get('state')}`,
      center.baseUrl,
    );
    expect(await visitCallback(denied, jar2)).toMatchObject({
      status: 400,
      result: 'error',
      message: '你取消了 Corp SSO 登录。',
    });
    expect(
      await visitCallback(
        new URL('/login/corp/callback?code=x', center.baseUrl),
        jar2,
      ),
    ).toMatchObject({ status: 400, result: 'error' });
    expect(await userCount(center, admin)).toBe(before + 1);
    expect((await finish(center, 'not-a-ticket', jar)).body).toEqual({
      ok: false,
      msg: '第三方登录已失效，请重新登录',
    });
  });

  it('refuses a banned user at the callback and at the finishing step', async () => {
    upstream.signInAs('sub-banned', { preferred_username: 'soon_banned' });
    const jar = new CookieJar();
    const first = await signInThrough(center, 'corp', jar);
    const pending = await throughProvider(center, 'corp', jar);
    await center.post(
      `${A}/admin/users/ban`,
      { username: first.body.user.username, banned: true },
      admin.token,
    );
    expect((await finish(center, pending.ticket, jar)).body).toEqual({
      ok: false,
      msg: '账号已被封禁',
    });
    expect(await throughProvider(center, 'corp', jar)).toMatchObject({
      status: 403,
      result: 'error',
      message: '账号已被封禁',
    });
  });

  it('a disabled provider loses its button and its callbacks refuse; its links work again when enabled', async () => {
    upstream.signInAs('sub-toggle', { preferred_username: 'toggler' });
    const first = await signInThrough(center, 'corp');
    const jar = new CookieJar();
    const pending = await callbackAddress(center, 'corp', jar);
    await center.post(
      `${A}/admin/providers/status`,
      { id: 'corp', enabled: false },
      admin.token,
    );
    expect(
      (await center.get(`${A}/upstream/providers`)).json().data.providers,
    ).toEqual([]);
    expect(await visitCallback(pending, jar)).toMatchObject({
      status: 404,
      result: 'error',
      message: '该登录方式不可用（可能已被管理员停用）。',
    });
    expect(
      await throughProvider(center, 'corp', new CookieJar()),
    ).toMatchObject({ status: 404, result: 'error' });
    await center.post(
      `${A}/admin/providers/status`,
      { id: 'corp', enabled: true },
      admin.token,
    );
    expect((await signInThrough(center, 'corp')).body.user.uid).toBe(
      first.body.user.uid,
    );
  });
});
