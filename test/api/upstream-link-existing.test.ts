import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { TestUser } from '../helpers/app.js';
import {
  browse,
  listeningCenter,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  signInThrough,
  throughProvider,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';

/**
 * Linking a provider account whose verified address belongs to an existing account
 * (docs/api.md §14.3): `link_existing` needs the proof of §10.1 in the same request, and links
 * only to the account holding that address — a stolen token, refreshed or not, links nothing.
 */
let center: ListeningCenter;
let admin: TestUser;
let github: StandIn;
const A = '/api/v1/auth';
const REAUTH = { ok: false, msg: '需要重新验证身份' };
const NOT_HOLDER = { ok: false, msg: '只能绑定到使用该邮箱的账号' };

beforeAll(async () => {
  [center, github] = await Promise.all([listeningCenter(), startGithub()]);
  admin = await center.admin();
  await addProvider(center, admin, githubProvider(github));
  await addProvider(
    center,
    admin,
    githubProvider(github, 'github-two', 'GitHub Two'),
  );
});
afterAll(async () => {
  await github?.close();
  await center?.close();
});

let counter = 0;
const address = (who: string) =>
  `${who}_${Date.now()}_${++counter}@example.com`;
const linksOf = async (token: string) =>
  (await center.get(`${A}/account/upstream`, token)).json().data.links;

/** The attacker signs in at GitHub with a verified address an account holds: the page's ticket, in the attacker's browser. */
async function ticketFor(
  email: string,
  id: string,
  jar: CookieJar,
  provider = 'github',
): Promise<string> {
  github.signInAs({
    id,
    login: `gh_${id}`,
    emails: [{ email, primary: true, verified: true }],
  });
  const page = await throughProvider(center, provider, jar);
  expect(page).toMatchObject({ result: 'email_exists', email });
  return page.ticket!;
}

describe('link_existing', () => {
  it("a thief's stolen token, refreshed after the ticket, links the thief's GitHub to nobody", async () => {
    const victim = await center.register({ email: address('victim') });
    const attacker = await center.register({ email: address('attacker') });
    const jar = new CookieJar();
    const ticket = await ticketFor(attacker.email, '660001', jar);
    // The stolen token from before the ticket, refreshed: it now looks signed in after the ticket.
    const refreshed = (
      await center.post(`${A}/refresh`, undefined, victim.token)
    ).json().access_token as string;
    const linked = await postJson(
      center,
      `${A}/upstream/link_existing`,
      { ticket },
      jar,
      refreshed,
    );
    expect([linked.status, linked.body]).toEqual([403, NOT_HOLDER]);
    expect(await linksOf(refreshed)).toEqual([]);
    // Signing in with that GitHub account is still not a way into the victim's account.
    const signIn = await throughProvider(center, 'github', new CookieJar());
    expect(signIn.result).toBe('email_exists');
  });

  it('never links to an account other than the one holding the address, even with its password', async () => {
    const holder = await center.register({ email: address('holder') });
    const other = await center.register({ email: address('other') });
    const jar = new CookieJar();
    const ticket = await ticketFor(holder.email, '660002', jar);
    const fresh = (
      await center.post(`${A}/login`, {
        username: other.username,
        password: other.password,
      })
    ).json().access_token as string;
    const linked = await postJson(
      center,
      `${A}/upstream/link_existing`,
      { ticket, current_password: other.password },
      jar,
      fresh,
    );
    expect([linked.status, linked.body]).toEqual([403, NOT_HOLDER]);
    expect(await linksOf(fresh)).toEqual([]);
    expect(await linksOf(holder.token)).toEqual([]);
  });

  it('the holder links with the password (and the second factor when on) in the same request', async () => {
    const holder = await center.register({ email: address('honest') });
    const setup = (
      await center.post(
        `${A}/account/totp/setup`,
        { current_password: holder.password },
        holder.token,
      )
    ).json().data;
    const recovery = (
      await center.post(
        `${A}/account/totp/enable`,
        { code: await generate({ secret: setup.secret }) },
        holder.token,
      )
    ).json().data.recovery_codes as string[];
    const jar = new CookieJar();
    const ticket = await ticketFor(holder.email, '660003', jar);
    const login = (
      await center.post(`${A}/login`, {
        username: holder.username,
        password: holder.password,
        otp: recovery[0],
      })
    ).json();
    const token = login.access_token as string;
    const call = (body: Record<string, unknown>) =>
      postJson(
        center,
        `${A}/upstream/link_existing`,
        { ticket, ...body },
        jar,
        token,
      );
    expect((await call({})).body).toEqual(REAUTH);
    expect(
      (await call({ current_password: 'not the password', otp: recovery[1] }))
        .body,
    ).toEqual(REAUTH);
    expect((await call({ current_password: holder.password })).body).toEqual(
      REAUTH,
    );
    expect(
      (await call({ current_password: holder.password, otp: recovery[2] }))
        .body,
    ).toEqual({
      ok: true,
      data: { provider: 'github', provider_name: 'GitHub' },
    });
    expect(await linksOf(token)).toEqual([
      expect.objectContaining({ provider: 'github' }),
    ]);
    expect(
      (await call({ current_password: holder.password, otp: recovery[3] }))
        .body,
    ).toEqual({ ok: false, msg: '第三方登录已失效，请重新登录' });
  });

  it('an account without a password proves itself with a code mailed to its address, not by its recent provider sign-in alone', async () => {
    const email = address('nopass');
    github.signInAs({
      id: '660004',
      login: 'nopass',
      emails: [{ email, primary: true, verified: true }],
    });
    const signInJar = new CookieJar();
    const holder = (await signInThrough(center, 'github', signInJar)).body;
    // A proof by signing in again with the linked provider, in this session.
    const reauth = await postJson(
      center,
      `${A}/account/upstream/reauth`,
      { provider: 'github' },
      signInJar,
      holder.access_token,
    );
    expect(reauth.status).toBe(200);
    const proved = await browse(
      new URL(reauth.body.data.url, center.baseUrl),
      signInJar,
    );
    expect(proved.url.search).toBe('?reauthenticated=github');

    const jar = new CookieJar();
    const ticket = await ticketFor(email, '660005', jar, 'github-two');
    const call = (body: Record<string, unknown>) =>
      postJson(
        center,
        `${A}/upstream/link_existing`,
        { ticket, ...body },
        jar,
        holder.access_token,
      );
    expect((await call({})).body).toEqual(REAUTH);
    expect((await call({ email_code: '000000' })).body).toEqual(REAUTH);
    expect(
      (
        await center.post(
          `${A}/account/reauth/send_code`,
          {},
          holder.access_token,
        )
      ).statusCode,
    ).toBe(200);
    const code = await center.smtp.codeFor(email);
    expect((await call({ email_code: code })).body).toEqual({
      ok: true,
      data: { provider: 'github-two', provider_name: 'GitHub Two' },
    });
    expect(
      (await linksOf(holder.access_token))
        .map((l: { provider: string }) => l.provider)
        .sort(),
    ).toEqual(['github', 'github-two']);
  });
});
