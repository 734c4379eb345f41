import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import {
  CookieJar,
  signInThrough,
  throughProvider,
  userCount,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import type { SteamStandIn } from '../helpers/upstream/steam.js';
import type { QqStandIn } from '../helpers/upstream/qq.js';
import {
  closeSocialCenter,
  startSocialCenter,
} from './upstream-social-setup.js';

/**
 * The presets of docs/api.md §14.1 against local stand-ins that answer as each provider's
 * documentation says (test/helpers/upstream/*.ts): who the subject is, what the profile gives,
 * when an e-mail address is taken, and the refusals.
 */
let center: ListeningCenter;
let admin: TestUser;
let github: StandIn;
let discord: StandIn;
let steam: SteamStandIn;
let qq: QqStandIn;
let wechat: StandIn;
const A = '/api/v1/auth';
/** How far the center's clock is ahead of the stand-ins'. */
const skewMs = 0;

beforeAll(async () => {
  ({ center, admin, github, discord, steam, qq, wechat } =
    await startSocialCenter(() => Date.now() + skewMs));
});
afterAll(async () => {
  await closeSocialCenter({ center, github, discord, steam, qq, wechat });
});

describe('Steam', () => {
  it('signs in by SteamID64 after check_authentication, with the Web API profile and never an address', async () => {
    steam.signInAs({ id: '76561197960287930', personaname: 'Rabscuttle' });
    const first = await signInThrough(center, 'steam');
    expect(first.body.user).toMatchObject({
      username: 'Rabscuttle',
      display_name: 'Rabscuttle',
      email: '',
    });
    expect((await signInThrough(center, 'steam')).body.user.uid).toBe(
      first.body.user.uid,
    );
    expect(steam.log).toContain('POST /openid/login');
    expect(steam.log).toContain('GET /ISteamUser/GetPlayerSummaries/v0002/');
  });

  it('refuses a forged assertion and a cancelled one, creating nothing', async () => {
    steam.signInAs({ id: '76561197960287931', personaname: 'Forger' });
    const before = await userCount(center, admin);
    steam.forge = true;
    const forged = await throughProvider(center, 'steam', new CookieJar());
    steam.forge = false;
    expect(forged).toMatchObject({
      status: 400,
      result: 'error',
      message: 'Steam 未能完成登录，请稍后重试。',
    });
    steam.declines = true;
    const cancelled = await throughProvider(center, 'steam', new CookieJar());
    steam.declines = false;
    expect(cancelled).toMatchObject({
      result: 'error',
      message: '你取消了 Steam 登录。',
    });
    expect(await userCount(center, admin)).toBe(before);
  });

  it('without a Web API key the account gets a made-up name', async () => {
    await center.post(
      `${A}/admin/providers/update`,
      { id: 'steam', api_key: '' },
      admin.token,
    );
    steam.signInAs({ id: '76561197960287932', personaname: 'Ignored' });
    expect((await signInThrough(center, 'steam')).body.user).toMatchObject({
      username: 'steam_user',
      display_name: 'steam_user',
    });
    expect(
      (await center.get(`${A}/admin/providers`, admin.token))
        .json()
        .data.providers.find((p: { id: string }) => p.id === 'steam')
        .has_api_key,
    ).toBe(false);
  });
});

describe('QQ and WeChat', () => {
  it('QQ: the unionid when granted, else the openid; the nickname, never an address', async () => {
    qq.signInAs({
      id: 'OPENID0000000000000000000000001',
      unionid: 'UID_qq_1',
      nickname: '小明',
    });
    const withUnion = await signInThrough(center, 'qq');
    expect(withUnion.body.user).toMatchObject({
      username: 'qq_user',
      display_name: '小明',
      email: '',
    });
    const links = (
      await center.get(`${A}/account/upstream`, withUnion.body.access_token)
    ).json().data.links;
    expect(links[0]).toMatchObject({
      provider: 'qq',
      display_name: '小明',
      avatar_url:
        'https://thirdqq.qlogo.cn/ek_qqapp/standin/OPENID0000000000000000000000001/100',
    });
    qq.signInAs({ id: 'OPENID0000000000000000000000002', nickname: 'Ming2' });
    expect((await signInThrough(center, 'qq')).body.user).toMatchObject({
      username: 'Ming2',
    });
    qq.declines = true;
    expect(await throughProvider(center, 'qq', new CookieJar())).toMatchObject({
      result: 'error',
      message: '你取消了 QQ 登录。',
    });
    qq.declines = false;
  });

  it('QQ: an app without the unionid permission signs people in by their openid', async () => {
    qq.unionidGranted = false;
    try {
      qq.signInAs({
        id: 'OPENID0000000000000000000000003',
        unionid: 'UID_qq_3',
        nickname: 'NoUnion',
      });
      const first = await signInThrough(center, 'qq');
      expect(first.body.user).toMatchObject({
        username: 'NoUnion',
        display_name: 'NoUnion',
      });
      expect((await signInThrough(center, 'qq')).body.user.uid).toBe(
        first.body.user.uid,
      );
    } finally {
      qq.unionidGranted = true;
    }
  });

  it('WeChat: the unionid, else the openid; a refusal comes back without a code', async () => {
    wechat.signInAs({
      id: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      nickname: '微信用户',
    });
    const first = await signInThrough(center, 'wechat');
    expect(first.body.user).toMatchObject({
      username: 'wechat_user',
      display_name: '微信用户',
      email: '',
    });
    // The same person through another of the operator's apps has another openid but the same unionid.
    wechat.signInAs({
      id: 'o6_other_app_openid',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      nickname: '微信用户',
    });
    expect((await signInThrough(center, 'wechat')).body.user.uid).toBe(
      first.body.user.uid,
    );
    wechat.declines = true;
    expect(
      await throughProvider(center, 'wechat', new CookieJar()),
    ).toMatchObject({ result: 'error', message: '你取消了 微信 登录。' });
    wechat.declines = false;
  });
});
