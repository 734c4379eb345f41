import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { OidcUpstream } from '../helpers/upstream/oidc-upstream.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import {
  callbackAddress,
  CookieJar,
  finish,
  signInThrough,
  throughProvider,
  userCount,
  visitCallback,
} from '../helpers/upstream/flow.js';
import { closeCorpCenter, startCorpCenter } from './upstream-oidc-setup.js';

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
  ({ center, upstream, admin } = await startCorpCenter());
});
afterAll(async () => {
  await closeCorpCenter({ center, upstream });
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
