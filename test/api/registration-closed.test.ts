import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  throughProvider,
  userCount,
} from '../helpers/upstream/flow.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { adminOf, newAccount } from './registration-setup.js';

/** Who may register (docs/api.md §16.2): REGISTRATION, invite codes and e-mail domain lists. */
const A = '/api/v1/auth';
const CLOSED = refusal('当前不开放注册');
const DOMAIN = refusal('该邮箱域名不允许注册');

describe('REGISTRATION=closed', () => {
  let center: ListeningCenter;
  let github: StandIn;
  let admin: TestUser;
  beforeAll(async () => {
    [center, github] = await Promise.all([
      listeningCenter({ REGISTRATION: 'closed' }),
      startGithub(),
    ]);
    admin = await adminOf(center);
    await addProvider(center, admin, githubProvider(github));
  });
  afterAll(async () => {
    await github?.close();
    await center?.close();
  });

  it('refuses register with 403 当前不开放注册, even with an invite code', async () => {
    expect(failure(await center.post(`${A}/register`, newAccount()))).toEqual([
      403,
      CLOSED,
    ]);
    expect(
      failure(
        await center.post(`${A}/register`, {
          ...newAccount(),
          invite_code: 'x',
        }),
      ),
    ).toEqual([403, CLOSED]);
  });

  it('lets sign-in through another account reach only accounts that exist', async () => {
    const before = await userCount(center, admin);
    github.signInAs({ id: '9001', login: 'newcomer', name: 'New', emails: [] });
    const page = await throughProvider(center, 'github', new CookieJar());
    expect(page).toMatchObject({
      status: 403,
      result: 'error',
      message: '当前不开放注册',
    });
    expect(await userCount(center, admin)).toBe(before);
    // An address of an account that exists still leads to signing in to that account to link it.
    const owner = { ...newAccount('github.example') };
    await center.runtime.services.admin.createUser(
      { ...owner, roles: ['player'] },
      'test',
    );
    github.signInAs({
      id: '9002',
      login: 'owner',
      name: 'Owner',
      emails: [{ email: owner.email, primary: true, verified: true }],
    });
    expect(
      await throughProvider(center, 'github', new CookieJar()),
    ).toMatchObject({
      status: 200,
      result: 'email_exists',
      email: owner.email,
    });
  });
});

describe('e-mail domain lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      REGISTRATION_EMAIL_DOMAINS: 'example.com, school.edu',
      REGISTRATION_BLOCKED_DOMAINS: 'spam.example.com',
    });
  });
  afterAll(async () => t.close());

  it('allows the listed domains and their subdomains, minus the blocked ones', async () => {
    expect(
      (await t.post(`${A}/register`, newAccount('example.com'))).statusCode,
    ).toBe(200);
    expect(
      (await t.post(`${A}/register`, newAccount('Mail.School.EDU'))).statusCode,
    ).toBe(200);
    expect(
      failure(await t.post(`${A}/register`, newAccount('other.org'))),
    ).toEqual([400, DOMAIN]);
    expect(
      failure(await t.post(`${A}/register`, newAccount('notexample.com'))),
    ).toEqual([400, DOMAIN]);
    expect(
      failure(await t.post(`${A}/register`, newAccount('spam.example.com'))),
    ).toEqual([400, DOMAIN]);
    expect(
      failure(await t.post(`${A}/register`, newAccount('x.spam.example.com'))),
    ).toEqual([400, DOMAIN]);
  });
});

describe('the defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('have no CAPTCHA route and take no invite code', async () => {
    expect(failure(await t.get(`${A}/captcha`))).toEqual([
      404,
      refusal('接口不存在'),
    ]);
    expect(
      (
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: 'ignored',
          captcha: 'ignored',
        })
      ).statusCode,
    ).toBe(200);
  });
});
