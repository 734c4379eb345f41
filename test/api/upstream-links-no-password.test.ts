import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import { CookieJar, signInThrough } from '../helpers/upstream/flow.js';
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
let github: StandIn;
let discord: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, github, discord } = await startLinksCenter());
});
afterAll(async () => {
  await closeLinksCenter({ center, github, discord });
});

const { fromAccount, linksOf } = accountLinks(() => center);

describe('an account without a password', () => {
  it('proves itself through a linked provider; its last way in cannot go; it can set a password', async () => {
    github.signInAs({ id: '7201', login: 'no_password' });
    const jar = new CookieJar();
    const me = (await signInThrough(center, 'github', jar)).body;
    const token = me.access_token as string;
    expect((await linksOf(token)).has_password).toBe(false);
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'github' },
          token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '需要重新验证身份' });

    // Proving with another GitHub account than the linked one proves nothing.
    github.signInAs({ id: '7299', login: 'someone_else' });
    expect(
      (await fromAccount('reauth', token, { provider: 'github' }, jar)).page,
    ).toMatchObject({
      result: 'error',
      message: '这个 GitHub 账号没有绑定到当前账号，无法用来验证身份。',
    });
    github.signInAs({ id: '7201', login: 'no_password' });
    const proved = await fromAccount(
      'reauth',
      token,
      { provider: 'github' },
      jar,
    );
    expect(proved.page?.url.search).toBe('?reauthenticated=github');
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'github' },
          token,
        )
      ).json(),
    ).toEqual({
      ok: false,
      msg: '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式',
    });
    expect((await linksOf(token)).links).toHaveLength(1);

    // Within the proof's ten minutes: a second provider, then the first may go.
    discord.signInAs({ id: '7202', username: 'second_way' });
    expect(
      (await fromAccount('link', token, { provider: 'discord' }, jar)).page?.url
        .search,
    ).toBe('?linked=discord');
    expect(
      (
        await center.post(
          `${A}/account/upstream/unlink`,
          { provider: 'github' },
          token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    // The proof belongs to this session only.
    const otherSession = (await signInThrough(center, 'discord')).body
      .access_token as string;
    expect(
      (
        await center.post(
          `${A}/account/password`,
          { new_password: 'a brand new password' },
          otherSession,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '需要重新验证身份' });
    const set = await center.post(
      `${A}/account/password`,
      { new_password: 'a brand new password' },
      token,
    );
    expect(set.statusCode).toBe(200);
    expect((await linksOf(set.json().access_token)).has_password).toBe(true);
    expect(
      (
        await center.post(`${A}/login`, {
          username: me.user.username,
          password: 'a brand new password',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('two unlinks at once never take away the last way in', async () => {
    github.signInAs({ id: '7501', login: 'racing' });
    const jar = new CookieJar();
    const token = (await signInThrough(center, 'github', jar)).body
      .access_token as string;
    await fromAccount('reauth', token, { provider: 'github' }, jar);
    discord.signInAs({ id: '7502', username: 'racing_too' });
    expect(
      (await fromAccount('link', token, { provider: 'discord' }, jar)).page?.url
        .search,
    ).toBe('?linked=discord');
    const answers = await Promise.all(
      ['github', 'discord'].map((provider) =>
        center.post(`${A}/account/upstream/unlink`, { provider }, token),
      ),
    );
    expect(
      answers.some(
        (a) =>
          a.json().msg ===
          '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式',
      ),
    ).toBe(true);
    expect((await linksOf(token)).links.length).toBeGreaterThanOrEqual(1);
  });
});
