import { describe, expect, it } from 'vitest';
import {
  CookieJar,
  signInThrough,
  throughProvider,
  userCount,
} from '../helpers/upstream/flow.js';
import { socialCenter } from './upstream-social-setup.js';

/**
 * The presets of docs/api.md §14.1 against local stand-ins that answer as each provider's
 * documentation says (test/helpers/upstream/*.ts): who the subject is, what the profile gives,
 * when an e-mail address is taken, and the refusals.
 */
const A = '/api/v1/auth';
const env = socialCenter();

describe('Steam', () => {
  it('signs in by SteamID64 after check_authentication, with the Web API profile and never an address', async () => {
    env.steam.signInAs({ id: '76561197960287930', personaname: 'Rabscuttle' });
    const first = await signInThrough(env.center, 'steam');
    expect(first.body.user).toMatchObject({
      username: 'Rabscuttle',
      display_name: 'Rabscuttle',
      email: '',
    });
    expect((await signInThrough(env.center, 'steam')).body.user.uid).toBe(
      first.body.user.uid,
    );
    expect(env.steam.log).toContain('POST /openid/login');
    expect(env.steam.log).toContain(
      'GET /ISteamUser/GetPlayerSummaries/v0002/',
    );
  });

  it('refuses a forged assertion and a cancelled one, creating nothing', async () => {
    env.steam.signInAs({ id: '76561197960287931', personaname: 'Forger' });
    const before = await userCount(env.center, env.admin);
    env.steam.forge = true;
    const forged = await throughProvider(env.center, 'steam', new CookieJar());
    env.steam.forge = false;
    expect(forged).toMatchObject({
      status: 400,
      result: 'error',
      message: 'Steam 未能完成登录，请稍后重试。',
    });
    env.steam.declines = true;
    const cancelled = await throughProvider(
      env.center,
      'steam',
      new CookieJar(),
    );
    env.steam.declines = false;
    expect(cancelled).toMatchObject({
      result: 'error',
      message: '你取消了 Steam 登录。',
    });
    expect(await userCount(env.center, env.admin)).toBe(before);
  });

  it('without a Web API key the account gets a made-up name', async () => {
    await env.center.post(
      `${A}/admin/providers/update`,
      { id: 'steam', api_key: '' },
      env.admin.token,
    );
    env.steam.signInAs({ id: '76561197960287932', personaname: 'Ignored' });
    expect((await signInThrough(env.center, 'steam')).body.user).toMatchObject({
      username: 'steam_user',
      display_name: 'steam_user',
    });
    expect(
      (await env.center.get(`${A}/admin/providers`, env.admin.token))
        .json()
        .data.providers.find((p: { id: string }) => p.id === 'steam')
        .has_api_key,
    ).toBe(false);
  });
});

describe('QQ and WeChat', () => {
  it('QQ: the unionid when granted, else the openid; the nickname, never an address', async () => {
    env.qq.signInAs({
      id: 'OPENID0000000000000000000000001',
      unionid: 'UID_qq_1',
      nickname: '小明',
    });
    const withUnion = await signInThrough(env.center, 'qq');
    expect(withUnion.body.user).toMatchObject({
      username: 'qq_user',
      display_name: '小明',
      email: '',
    });
    const links = (
      await env.center.get(`${A}/account/upstream`, withUnion.body.access_token)
    ).json().data.links;
    expect(links[0]).toMatchObject({
      provider: 'qq',
      display_name: '小明',
      avatar_url:
        'https://thirdqq.qlogo.cn/ek_qqapp/standin/OPENID0000000000000000000000001/100',
    });
    env.qq.signInAs({
      id: 'OPENID0000000000000000000000002',
      nickname: 'Ming2',
    });
    expect((await signInThrough(env.center, 'qq')).body.user).toMatchObject({
      username: 'Ming2',
    });
    env.qq.declines = true;
    expect(
      await throughProvider(env.center, 'qq', new CookieJar()),
    ).toMatchObject({
      result: 'error',
      message: '你取消了 QQ 登录。',
    });
    env.qq.declines = false;
  });

  it('QQ: an app without the unionid permission signs people in by their openid', async () => {
    env.qq.unionidGranted = false;
    try {
      env.qq.signInAs({
        id: 'OPENID0000000000000000000000003',
        unionid: 'UID_qq_3',
        nickname: 'NoUnion',
      });
      const first = await signInThrough(env.center, 'qq');
      expect(first.body.user).toMatchObject({
        username: 'NoUnion',
        display_name: 'NoUnion',
      });
      expect((await signInThrough(env.center, 'qq')).body.user.uid).toBe(
        first.body.user.uid,
      );
    } finally {
      env.qq.unionidGranted = true;
    }
  });

  it('WeChat: the unionid, else the openid; a refusal comes back without a code', async () => {
    env.wechat.signInAs({
      id: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      nickname: '微信用户',
    });
    const first = await signInThrough(env.center, 'wechat');
    expect(first.body.user).toMatchObject({
      username: 'wechat_user',
      display_name: '微信用户',
      email: '',
    });
    // The same person through another of the operator's apps has another openid but the same unionid.
    env.wechat.signInAs({
      id: 'o6_other_app_openid',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      nickname: '微信用户',
    });
    expect((await signInThrough(env.center, 'wechat')).body.user.uid).toBe(
      first.body.user.uid,
    );
    env.wechat.declines = true;
    expect(
      await throughProvider(env.center, 'wechat', new CookieJar()),
    ).toMatchObject({ result: 'error', message: '你取消了 微信 登录。' });
    env.wechat.declines = false;
  });
});
