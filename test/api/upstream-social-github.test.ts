import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  callbackAddress,
  CookieJar,
  signInThrough,
  throughProvider,
  userCount,
  visitCallback,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { GITHUB_CLIENT } from '../helpers/upstream/github.js';
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
let skewMs = 0;

beforeAll(async () => {
  ({ center, admin, github, discord, steam, qq, wechat } =
    await startSocialCenter(() => Date.now() + skewMs));
});
afterAll(async () => {
  await closeSocialCenter({ center, github, discord, steam, qq, wechat });
});

describe('GitHub', () => {
  it('signs in by numeric id, with the primary address only when verified', async () => {
    github.signInAs({
      id: '583231',
      login: 'octo-cat',
      name: 'The Octocat',
      emails: [
        { email: 'octo@github.example', primary: true, verified: true },
        { email: 'old@github.example', primary: false, verified: true },
      ],
    });
    const first = await signInThrough(center, 'github');
    expect(first.body.user).toMatchObject({
      username: 'octo_cat',
      display_name: 'The Octocat',
      email: 'octo@github.example',
    });
    expect((await signInThrough(center, 'github')).body.user.uid).toBe(
      first.body.user.uid,
    );
    const links = (
      await center.get(`${A}/account/upstream`, first.body.access_token)
    ).json().data.links;
    expect(links[0]).toMatchObject({
      provider: 'github',
      display_name: 'The Octocat',
      avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
    });

    github.signInAs({
      id: '583232',
      login: 'hubber',
      name: null,
      emails: [
        { email: 'hubber@github.example', primary: true, verified: false },
      ],
    });
    expect((await signInThrough(center, 'github')).body.user).toMatchObject({
      username: 'hubber',
      display_name: 'hubber',
      email: '',
    });
  });

  it('shows a page when the person declines at GitHub', async () => {
    github.declines = true;
    const page = await throughProvider(center, 'github', new CookieJar());
    github.declines = false;
    expect(page).toMatchObject({
      status: 400,
      result: 'error',
      message: '你取消了 GitHub 登录。',
    });
  });
});

describe('failures on the way back', () => {
  it('a state older than 10 minutes and an unreachable provider show a page and create nothing', async () => {
    github.signInAs({ id: '583240', login: 'late-comer' });
    const before = await userCount(center, admin);
    const jar = new CookieJar();
    const address = await callbackAddress(center, 'github', jar);
    skewMs = 10 * 60_000 + 1000;
    try {
      const late = await visitCallback(address, jar);
      expect(late).toMatchObject({
        status: 400,
        result: 'error',
        message:
          '登录请求已失效，或不是在这个浏览器中发起的。请返回登录页重新开始。',
      });
    } finally {
      skewMs = 0;
    }
    await addProvider(center, admin, {
      id: 'github-down',
      type: 'github',
      name: 'GitHub Down',
      client_id: GITHUB_CLIENT.id,
      client_secret: GITHUB_CLIENT.secret,
      authorization_endpoint: `${github.base}/login/oauth/authorize`,
      token_endpoint: 'http://127.0.0.1:9/login/oauth/access_token',
      api_base: github.base,
    });
    const down = await throughProvider(center, 'github-down', new CookieJar());
    expect(down).toMatchObject({
      status: 400,
      result: 'error',
      message: '暂时无法连接 GitHub Down，请稍后重试。',
    });
    await center.post(
      `${A}/admin/providers/status`,
      { id: 'github-down', enabled: false },
      admin.token,
    );
    expect(await userCount(center, admin)).toBe(before);
  });
});

describe('Discord', () => {
  it('takes the address only when Discord says it is verified', async () => {
    discord.signInAs({
      id: '80351110224678912',
      username: 'nelly',
      global_name: 'Nelly',
      avatar: '8342729096ea3675442027381ff50dfe',
      email: 'nelly@discord.example',
      verified: true,
    });
    const verified = await signInThrough(center, 'discord');
    expect(verified.body.user).toMatchObject({
      username: 'nelly',
      display_name: 'Nelly',
      email: 'nelly@discord.example',
    });
    discord.signInAs({
      id: '80351110224678913',
      username: 'unverified',
      email: 'unverified@discord.example',
      verified: false,
    });
    expect((await signInThrough(center, 'discord')).body.user).toMatchObject({
      username: 'unverified',
      email: '',
    });
  });

  it('--require-guild: asks for guilds and refuses people outside the server, creating nothing', async () => {
    await center.post(
      `${A}/admin/providers/update`,
      { id: 'discord', require_guild: '613425648685547541' },
      admin.token,
    );
    discord.signInAs({
      id: '80351110224678914',
      username: 'outsider',
      guilds: ['1'],
    });
    const before = await userCount(center, admin);
    const refused = await throughProvider(center, 'discord', new CookieJar());
    expect(refused).toMatchObject({
      status: 400,
      result: 'error',
      message: '只有指定 Discord 服务器的成员才能使用 Discord 登录。',
    });
    expect(await userCount(center, admin)).toBe(before);
    discord.signInAs({
      id: '80351110224678915',
      username: 'member',
      guilds: ['1', '613425648685547541'],
    });
    expect((await signInThrough(center, 'discord')).status).toBe(200);
    const view = (await center.get(`${A}/admin/providers`, admin.token))
      .json()
      .data.providers.find((p: { id: string }) => p.id === 'discord');
    expect(view).toMatchObject({
      require_guild: '613425648685547541',
      scopes: 'identify email guilds',
    });
    await center.post(
      `${A}/admin/providers/update`,
      { id: 'discord', require_guild: '' },
      admin.token,
    );
  });
});
