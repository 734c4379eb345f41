import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  browse,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  callbackPage,
  CookieJar,
  signInThrough,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
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

const { fromAccount, linksOf } = accountLinks(() => center);

describe('linking from /account', () => {
  it('needs the password, links, refuses a second link of the provider and a subject linked elsewhere', async () => {
    const person = await center.register();
    github.signInAs({ id: '7001', login: 'linked_one' });
    expect(
      (await fromAccount('link', person.token, { provider: 'github' })).start
        .body,
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    expect(
      (
        await fromAccount('link', person.token, {
          provider: 'github',
          current_password: 'wrong password',
        })
      ).start.body,
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    const { page } = await fromAccount('link', person.token, {
      provider: 'github',
      current_password: person.password,
    });
    expect(page?.url.pathname + page!.url.search).toBe(
      '/account?linked=github',
    );
    expect((await linksOf(person.token)).links).toEqual([
      expect.objectContaining({
        provider: 'github',
        display_name: 'linked_one',
      }),
    ]);
    expect(
      (
        await fromAccount('link', person.token, {
          provider: 'github',
          current_password: person.password,
        })
      ).start.body,
    ).toEqual({ ok: false, msg: '已绑定过该登录方式' });
    expect(
      (
        await fromAccount('link', person.token, {
          provider: 'nope',
          current_password: person.password,
        })
      ).start.body,
    ).toEqual({ ok: false, msg: '未知的登录方式' });

    const other = await center.register();
    const elsewhere = await fromAccount('link', other.token, {
      provider: 'github',
      current_password: other.password,
    });
    expect(elsewhere.page).toMatchObject({
      status: 409,
      result: 'error',
      message: '该 GitHub 账号已绑定其他账号。',
    });
    // The signed-in subject signs in as the account it was linked to.
    expect((await signInThrough(center, 'github')).body.user.uid).toBe(
      person.uid,
    );
  });

  it('a link ticket works only in the browser that asked for it', async () => {
    const person = await center.register();
    const start = await postJson(
      center,
      `${A}/account/upstream/link`,
      { provider: 'discord', current_password: person.password },
      new CookieJar(),
      person.token,
    );
    const stolen = callbackPage(
      await browse(
        new URL(start.body.data.url, center.baseUrl),
        new CookieJar(),
      ),
    );
    expect(stolen).toMatchObject({ status: 400, result: 'error' });
    expect((await linksOf(person.token)).links).toEqual([]);
  });

  it('unlinks after re-authentication, with an audit entry', async () => {
    const person = await center.register();
    discord.signInAs({ id: '7101', username: 'to_unlink' });
    await fromAccount('link', person.token, {
      provider: 'discord',
      current_password: person.password,
    });
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'discord' },
          person.token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'discord', current_password: person.password },
          person.token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'discord', current_password: person.password },
          person.token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '未绑定该登录方式' });
    const audit = (
      await center.get(
        `${A}/admin/audit?action=identity.unlinked&target=${person.username}`,
        admin.token,
      )
    ).json().data.entries;
    expect(audit[0]).toMatchObject({
      actor: person.username,
      detail: { provider: 'discord' },
    });
    // The subject is free again: it signs up as a new person.
    expect((await signInThrough(center, 'discord')).body.user.uid).not.toBe(
      person.uid,
    );
  });
});
