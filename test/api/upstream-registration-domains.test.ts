import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  pageData,
  browse,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  signInThrough,
  throughProvider,
  userCount,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import { startSteam, type SteamStandIn } from '../helpers/upstream/steam.js';

/**
 * Who may register (docs/api.md §16.2) holds for accounts made by signing in with another
 * provider too: the e-mail domain lists apply to the address the provider vouches for, and
 * with an allow list set, a provider that vouches for no address makes no account.
 */
let allowing: ListeningCenter;
let blocking: ListeningCenter;
let allowingAdmin: TestUser;
let blockingAdmin: TestUser;
let github: StandIn;
let steam: SteamStandIn;
const DOMAIN_PAGE = {
  status: 400,
  result: 'error',
  message: '该邮箱域名不允许注册',
};

beforeAll(async () => {
  [allowing, blocking, github, steam] = await Promise.all([
    listeningCenter({ REGISTRATION_EMAIL_DOMAINS: 'allowed.test,example.com' }),
    listeningCenter({ REGISTRATION_BLOCKED_DOMAINS: 'blocked.test' }),
    startGithub(),
    startSteam(),
  ]);
  [allowingAdmin, blockingAdmin] = await Promise.all([
    allowing.admin(),
    blocking.admin(),
  ]);
  for (const [center, admin] of [
    [allowing, allowingAdmin],
    [blocking, blockingAdmin],
  ] as const) {
    await addProvider(center, admin, githubProvider(github));
    await addProvider(center, admin, {
      id: 'steam',
      type: 'steam',
      name: 'Steam',
      openid_endpoint: steam.endpoint,
    });
  }
});
afterAll(async () => {
  await Promise.all([github?.close(), steam?.close()]);
  await Promise.all([allowing?.close(), blocking?.close()]);
});

const verified = (email: string) => [{ email, primary: true, verified: true }];

describe('REGISTRATION_EMAIL_DOMAINS', () => {
  it('a verified address outside the list makes no account, as /register refuses it', async () => {
    const form = await allowing.post('/api/v1/auth/register', {
      username: 'outsider_form',
      password: 'a long password',
      email: 'outsider@example.test',
    });
    expect([form.statusCode, form.json()]).toEqual([
      400,
      { ok: false, msg: '该邮箱域名不允许注册' },
    ]);
    github.signInAs({
      id: '880001',
      login: 'outsider',
      emails: verified('outsider@example.test'),
    });
    const before = await userCount(allowing, allowingAdmin);
    const page = await throughProvider(allowing, 'github', new CookieJar());
    expect(page).toMatchObject(DOMAIN_PAGE);
    expect(page.ticket).toBeUndefined();
    expect(await userCount(allowing, allowingAdmin)).toBe(before);
  });

  it('a verified address in the list (or a subdomain) makes the account, which then signs in again', async () => {
    github.signInAs({
      id: '880002',
      login: 'insider',
      emails: verified('insider@team.allowed.test'),
    });
    const first = await signInThrough(allowing, 'github');
    expect(first.body.user).toMatchObject({
      username: 'insider',
      email: 'insider@team.allowed.test',
    });
    expect((await signInThrough(allowing, 'github')).body.user.uid).toBe(
      first.body.user.uid,
    );
  });

  it('no address, or one the provider does not vouch for, makes no account: a page says why, in the page language', async () => {
    const before = await userCount(allowing, allowingAdmin);
    steam.signInAs({ id: '76561197960500001' });
    const bySteam = await throughProvider(allowing, 'steam', new CookieJar());
    expect(bySteam).toMatchObject({
      status: 403,
      result: 'error',
      message:
        '注册需要邮箱，但 Steam 没有提供经过验证的邮箱。请先用邮箱注册账号，再在账号页面绑定 Steam。',
    });
    github.signInAs({
      id: '880003',
      login: 'unverified',
      emails: [
        { email: 'unverified@allowed.test', primary: true, verified: false },
      ],
    });
    expect(
      await throughProvider(allowing, 'github', new CookieJar()),
    ).toMatchObject({ status: 403, result: 'error' });
    expect(await userCount(allowing, allowingAdmin)).toBe(before);
    // The page names the problem, so an English page can say it in English.
    steam.signInAs({ id: '76561197960500002' });
    const raw = await browse(
      `${allowing.baseUrl}/login/steam`,
      new CookieJar(),
    );
    expect(pageData(raw.text)).toMatchObject({
      'upstream-problem': 'emailRequired',
      'upstream-provider': 'Steam',
    });
  });
});

describe('REGISTRATION_BLOCKED_DOMAINS', () => {
  it('a verified address in the list makes no account; a provider without an address still does', async () => {
    github.signInAs({
      id: '880101',
      login: 'blocked',
      emails: verified('someone@mail.blocked.test'),
    });
    const before = await userCount(blocking, blockingAdmin);
    expect(
      await throughProvider(blocking, 'github', new CookieJar()),
    ).toMatchObject(DOMAIN_PAGE);
    expect(await userCount(blocking, blockingAdmin)).toBe(before);
    steam.signInAs({ id: '76561197960500101' });
    expect((await signInThrough(blocking, 'steam')).status).toBe(200);
    github.signInAs({
      id: '880102',
      login: 'fine',
      emails: verified('fine@example.test'),
    });
    expect((await signInThrough(blocking, 'github')).body.user).toMatchObject({
      email: 'fine@example.test',
    });
  });
});
