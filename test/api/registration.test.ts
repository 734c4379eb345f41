import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
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

/** Who may register (docs/api.md §16.2): REGISTRATION, invite codes and e-mail domain lists. */
const A = '/api/v1/auth';
const BAD_INVITE = refusal('邀请码无效或已用完');
const CLOSED = refusal('当前不开放注册');
const DOMAIN = refusal('该邮箱域名不允许注册');

const newAccount = (domain = 'example.com') => {
  const username = uniqueName('reg');
  return {
    username,
    password: 'correct horse battery',
    email: `${username}@${domain}`,
  };
};

/** An administrator made as the CLI makes one: registration may be closed. */
async function adminOf(t: TestApp): Promise<TestUser> {
  const account = newAccount();
  await t.runtime.services.admin.createUser(
    { ...account, roles: ['player', 'admin'] },
    'test',
  );
  const res = await t.post(`${A}/login`, {
    username: account.username,
    password: account.password,
  });
  return {
    ...account,
    token: res.json().access_token,
    uid: res.json().user.uid,
  };
}

describe('REGISTRATION=invite', () => {
  let t: TestApp;
  let admin: TestUser;
  let clock = Date.UTC(2031, 5, 1, 9, 0, 0);
  beforeAll(async () => {
    t = await createTestApp(
      { REGISTRATION: 'invite', LIMIT_REGISTER_IP: '1000/3600' },
      { now: () => clock },
    );
    admin = await adminOf(t);
  });
  afterAll(async () => t.close());

  const invite = async (body: Record<string, unknown>) => {
    const res = await t.post(`${A}/admin/invites`, body, admin.token);
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      id: string;
      code: string;
      uses: number;
      used: number;
      expires_at: number | null;
    };
  };
  const listed = async (id: string) =>
    (await t.get(`${A}/admin/invites`, admin.token))
      .json()
      .data.invites.find((i: { id: string }) => i.id === id);

  it('needs an invite code', async () => {
    expect(failure(await t.post(`${A}/register`, newAccount()))).toEqual([
      400,
      BAD_INVITE,
    ]);
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: 'made-up',
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
  });

  it('an N-use code makes exactly N accounts out of 50 parallel registrations', async () => {
    const made = await invite({ uses: 3 });
    expect(made).toMatchObject({ uses: 3, used: 0, expires_at: null });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.post(`${A}/register`, { ...newAccount(), invite_code: made.code }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const r of answers.filter((r) => r.statusCode !== 200))
      expect(failure(r)).toEqual([400, BAD_INVITE]);
    expect(await listed(made.id)).toMatchObject({ uses: 3, used: 3 });
    expect(JSON.stringify(await listed(made.id))).not.toContain(made.code);
  });

  it('gives the use back when the registration then fails', async () => {
    const made = await invite({});
    const res = await t.post(`${A}/register`, {
      ...newAccount(),
      invite_code: made.code,
      email_code: '000000',
    });
    expect(failure(res)).toEqual([400, refusal('验证码错误或已过期')]);
    expect(await listed(made.id)).toMatchObject({ uses: 1, used: 0 });
    expect(
      (
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: made.code,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('expires, and can be removed', async () => {
    const made = await invite({ uses: 5, expires_in: 3600 });
    expect(made.expires_at).toBe(clock + 3600_000);
    clock += 3600_000;
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: made.code,
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
    const other = await invite({ uses: 5 });
    expect(
      (await t.post(`${A}/admin/invites/remove`, { id: other.id }, admin.token))
        .statusCode,
    ).toBe(200);
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: other.code,
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
    expect(
      failure(
        await t.post(
          `${A}/admin/invites/remove`,
          { id: other.id },
          admin.token,
        ),
      ),
    ).toEqual([404, refusal('邀请码不存在')]);
  });

  it('refuses bad invite settings and non-administrators', async () => {
    expect(
      failure(await t.post(`${A}/admin/invites`, { uses: 0 }, admin.token)),
    ).toEqual([400, refusal('参数错误：uses')]);
    expect(
      failure(
        await t.post(`${A}/admin/invites`, { expires_in: -5 }, admin.token),
      ),
    ).toEqual([400, refusal('参数错误：expires_in')]);
    expect(
      failure(
        await t.post(`${A}/admin/invites`, { uses: 'many' }, admin.token),
      ),
    ).toEqual([400, refusal('参数错误：uses')]);
    const made = await invite({});
    const player = await t.post(`${A}/register`, {
      ...newAccount(),
      invite_code: made.code,
    });
    expect(
      failure(
        await t.post(`${A}/admin/invites`, {}, player.json().access_token),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
  });
});

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
