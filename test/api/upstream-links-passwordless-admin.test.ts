import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import { CookieJar, signInThrough } from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import {
  accountLinks,
  closeLinksCenter,
  startLinksCenter,
} from './upstream-links-setup.js';

/**
 * Linking rules of docs/api.md §14.3 and §14.4: links made from /account after
 * re-authentication, unlinking never the last way in, an account without a password proving
 * itself through a linked provider, deletion freeing the subject, and administrators' view.
 */
let center: ListeningCenter;
let admin: TestUser;
let github: StandIn;
let discord: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, admin, github, discord } = await startLinksCenter());
});
afterAll(async () => {
  await closeLinksCenter({ center, github, discord });
});

const { fromAccount } = accountLinks(() => center);

describe('an account without a password', () => {
  it('the last passkey of an account without a password or link stays, even against parallel removals', async () => {
    github.signInAs({ id: '7601', login: 'key_only' });
    const jar = new CookieJar();
    const token = (await signInThrough(center, 'github', jar)).body
      .access_token as string;
    await fromAccount('reauth', token, { provider: 'github' }, jar);
    const device = new SoftAuthenticator(center.baseUrl);
    const addPasskey = async () => {
      const options = (
        await center.post(`${A}/account/passkeys/options`, {}, token)
      ).json().data;
      expect(
        (
          await center.post(
            `${A}/account/passkeys/register`,
            { response: device.create(options) },
            token,
          )
        ).statusCode,
      ).toBe(200);
    };
    const passkeyIds = async (): Promise<string[]> =>
      (await center.get(`${A}/account/second_factor`, token))
        .json()
        .data.passkeys.map((p: { id: string }) => p.id);
    await addPasskey();
    // The passkey is another way in: the link may go; then the passkey is the last one.
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'github' },
          token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    const [only] = await passkeyIds();
    expect(
      (
        await center.post(`${A}/account/passkeys/delete`, { id: only }, token)
      ).json(),
    ).toEqual({
      ok: false,
      msg: '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式',
    });
    expect(await passkeyIds()).toEqual([only]);

    await addPasskey();
    const ids = await passkeyIds();
    expect(ids).toHaveLength(2);
    const answers = await Promise.all(
      ids.map((id) =>
        center.post(`${A}/account/passkeys/delete`, { id }, token),
      ),
    );
    expect(
      answers.some(
        (a) =>
          a.json().msg ===
          '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式',
      ),
    ).toBe(true);
    expect((await passkeyIds()).length).toBeGreaterThanOrEqual(1);
    // An account with a password may remove its last passkey as before (test/api/passkeys-sign-in.test.ts).
  });

  it('proves itself with a code mailed to its address: once, and never for an account with a password', async () => {
    const email = `mailed_${Date.now()}@example.com`;
    github.signInAs({
      id: '7701',
      login: 'mailed_proof',
      emails: [{ email, primary: true, verified: true }],
    });
    const token = (await signInThrough(center, 'github')).body
      .access_token as string;
    const REAUTH = { ok: false, msg: '需要重新验证身份' };
    expect(
      (
        await center.post(
          `${A}/account/passkeys/options`,
          { email_code: '000000' },
          token,
        )
      ).json(),
    ).toEqual(REAUTH);
    const sent = await center.post(`${A}/account/reauth/send_code`, {}, token);
    expect(sent.json()).toEqual({
      ok: true,
      data: { expires_in: 600, resend_after: 60 },
    });
    const code = await center.smtp.codeFor(email);
    expect(
      (
        await center.post(
          `${A}/account/passkeys/options`,
          { email_code: code },
          token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await center.post(
          `${A}/account/passkeys/options`,
          { email_code: code },
          token,
        )
      ).json(),
    ).toEqual(REAUTH);
    const person = await center.register();
    expect(
      (
        await center.post(`${A}/account/reauth/send_code`, {}, person.token)
      ).json(),
    ).toEqual(REAUTH);
  });

  it('deleting the account removes its links: the subject signs up again as a new person', async () => {
    github.signInAs({ id: '7301', login: 'leaving' });
    const jar = new CookieJar();
    const first = (await signInThrough(center, 'github', jar)).body;
    await fromAccount(
      'reauth',
      first.access_token,
      { provider: 'github' },
      jar,
    );
    expect(
      (await center.post(`${A}/account/delete`, {}, first.access_token)).json(),
    ).toEqual({ ok: true, data: {} });
    const again = (await signInThrough(center, 'github')).body;
    expect(again.user.uid).not.toBe(first.user.uid);
    expect(again.user.username).toBe('leaving');
  });
});

describe('administrators', () => {
  it("see a user's links and remove them", async () => {
    github.signInAs({ id: '7401', login: 'watched' });
    const person = (await signInThrough(center, 'github')).body;
    const list = await center.get(
      `${A}/admin/users/links?username=${person.user.username}`,
      admin.token,
    );
    expect(list.json().data.links).toEqual([
      expect.objectContaining({
        provider: 'github',
        provider_name: 'GitHub',
        display_name: 'watched',
      }),
    ]);
    expect(
      (
        await center.post(
          `${A}/admin/users/links/remove`,
          { username: person.user.username, provider: 'github' },
          admin.token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect(
      (
        await center.get(
          `${A}/admin/users/links?username=${person.user.username}`,
          admin.token,
        )
      ).json().data.links,
    ).toEqual([]);
    expect(
      (
        await center.get(
          `${A}/admin/users/links?username=nobody_here`,
          admin.token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '用户不存在' });
    expect(
      (
        await center.get(
          `${A}/admin/users/links?username=${person.user.username}`,
          person.access_token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '需要管理员权限' });
  });
});
