import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { TestUser } from '../helpers/app.js';
import type { OidcUpstream } from '../helpers/upstream/oidc-upstream.js';
import {
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
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
