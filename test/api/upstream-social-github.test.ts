import { describe, expect, it } from 'vitest';
import {
  addProvider,
  callbackAddress,
  CookieJar,
  signInThrough,
  throughProvider,
  userCount,
  visitCallback,
} from '../helpers/upstream/flow.js';
import { GITHUB_CLIENT } from '../helpers/upstream/github.js';
import { socialCenter } from './upstream-social-setup.js';

/**
 * The presets of docs/api.md §14.1 against local stand-ins that answer as each provider's
 * documentation says (test/helpers/upstream/*.ts): who the subject is, what the profile gives,
 * when an e-mail address is taken, and the refusals.
 */
const A = '/api/v1/auth';
/** How far the center's clock is ahead of the stand-ins'. */
let skewMs = 0;
const env = socialCenter(() => Date.now() + skewMs);

describe('GitHub', () => {
  it('signs in by numeric id, with the primary address only when verified', async () => {
    env.github.signInAs({
      id: '583231',
      login: 'octo-cat',
      name: 'The Octocat',
      emails: [
        { email: 'octo@github.example', primary: true, verified: true },
        { email: 'old@github.example', primary: false, verified: true },
      ],
    });
    const first = await signInThrough(env.center, 'github');
    expect(first.body.user).toMatchObject({
      username: 'octo_cat',
      display_name: 'The Octocat',
      email: 'octo@github.example',
    });
    expect((await signInThrough(env.center, 'github')).body.user.uid).toBe(
      first.body.user.uid,
    );
    const links = (
      await env.center.get(`${A}/account/upstream`, first.body.access_token)
    ).json().data.links;
    expect(links[0]).toMatchObject({
      provider: 'github',
      display_name: 'The Octocat',
      avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
    });

    env.github.signInAs({
      id: '583232',
      login: 'hubber',
      name: null,
      emails: [
        { email: 'hubber@github.example', primary: true, verified: false },
      ],
    });
    expect((await signInThrough(env.center, 'github')).body.user).toMatchObject(
      {
        username: 'hubber',
        display_name: 'hubber',
        email: '',
      },
    );
  });

  it('shows a page when the person declines at GitHub', async () => {
    env.github.declines = true;
    const page = await throughProvider(env.center, 'github', new CookieJar());
    env.github.declines = false;
    expect(page).toMatchObject({
      status: 400,
      result: 'error',
      message: '你取消了 GitHub 登录。',
    });
  });
});

describe('failures on the way back', () => {
  it('a state older than 10 minutes and an unreachable provider show a page and create nothing', async () => {
    env.github.signInAs({ id: '583240', login: 'late-comer' });
    const before = await userCount(env.center, env.admin);
    const jar = new CookieJar();
    const address = await callbackAddress(env.center, 'github', jar);
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
    await addProvider(env.center, env.admin, {
      id: 'github-down',
      type: 'github',
      name: 'GitHub Down',
      client_id: GITHUB_CLIENT.id,
      client_secret: GITHUB_CLIENT.secret,
      authorization_endpoint: `${env.github.base}/login/oauth/authorize`,
      token_endpoint: 'http://127.0.0.1:9/login/oauth/access_token',
      api_base: env.github.base,
    });
    const down = await throughProvider(
      env.center,
      'github-down',
      new CookieJar(),
    );
    expect(down).toMatchObject({
      status: 400,
      result: 'error',
      message: '暂时无法连接 GitHub Down，请稍后重试。',
    });
    await env.center.post(
      `${A}/admin/providers/status`,
      { id: 'github-down', enabled: false },
      env.admin.token,
    );
    expect(await userCount(env.center, env.admin)).toBe(before);
  });
});

describe('Discord', () => {
  it('takes the address only when Discord says it is verified', async () => {
    env.discord.signInAs({
      id: '80351110224678912',
      username: 'nelly',
      global_name: 'Nelly',
      avatar: '8342729096ea3675442027381ff50dfe',
      email: 'nelly@discord.example',
      verified: true,
    });
    const verified = await signInThrough(env.center, 'discord');
    expect(verified.body.user).toMatchObject({
      username: 'nelly',
      display_name: 'Nelly',
      email: 'nelly@discord.example',
    });
    env.discord.signInAs({
      id: '80351110224678913',
      username: 'unverified',
      email: 'unverified@discord.example',
      verified: false,
    });
    expect(
      (await signInThrough(env.center, 'discord')).body.user,
    ).toMatchObject({
      username: 'unverified',
      email: '',
    });
  });

  it('--require-guild: asks for guilds and refuses people outside the server, creating nothing', async () => {
    await env.center.post(
      `${A}/admin/providers/update`,
      { id: 'discord', require_guild: '613425648685547541' },
      env.admin.token,
    );
    env.discord.signInAs({
      id: '80351110224678914',
      username: 'outsider',
      guilds: ['1'],
    });
    const before = await userCount(env.center, env.admin);
    const refused = await throughProvider(
      env.center,
      'discord',
      new CookieJar(),
    );
    expect(refused).toMatchObject({
      status: 400,
      result: 'error',
      message: '只有指定 Discord 服务器的成员才能使用 Discord 登录。',
    });
    expect(await userCount(env.center, env.admin)).toBe(before);
    env.discord.signInAs({
      id: '80351110224678915',
      username: 'member',
      guilds: ['1', '613425648685547541'],
    });
    expect((await signInThrough(env.center, 'discord')).status).toBe(200);
    const view = (await env.center.get(`${A}/admin/providers`, env.admin.token))
      .json()
      .data.providers.find((p: { id: string }) => p.id === 'discord');
    expect(view).toMatchObject({
      require_guild: '613425648685547541',
      scopes: 'identify email guilds',
    });
    await env.center.post(
      `${A}/admin/providers/update`,
      { id: 'discord', require_guild: '' },
      env.admin.token,
    );
  });
});
