import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';
import { timedSecretKey } from '../../src/platform/crypto/random.js';
import {
  authorizeBase,
  CB,
  expectErrorRedirect,
  startAuthorizeApp,
} from './oidc-authorize-setup.js';

let t: TestApp;
let conf: CreatedApp;
let clock = Date.now();

beforeAll(async () => {
  ({ t, conf } = await startAuthorizeApp(() => clock));
});
afterAll(async () => {
  await t.close();
});

const base = authorizeBase(() => conf);

/** Checks the page answer: 400 HTML under the pages' headers, never a Location. */
function expectErrorPage(
  res: Awaited<ReturnType<typeof authorizeGet>>,
  text: string,
) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  );
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.body).toContain(text);
}

/** Signs in (a new first-party token) and walks one request through the consent page. */
async function consentOnce(
  user: TestUser,
  params: Record<string, string>,
): Promise<URL> {
  const first = location(await authorizeGet(t, params, user.token));
  expect(first.pathname).toBe('/authorize');
  const res = await pagesPost(
    t,
    '/oauth/consent',
    { ticket: ticketOf(first), decision: 'allow' },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().data.redirect_to);
}

describe('authorization endpoint: sign-in, consent and the code', () => {
  it('omitted redirect_uri uses the only registered one and is recorded as not given', async () => {
    const person = await t.register();
    const { redirect_uri: _, ...params } = base();
    const cb = await consentOnce(person, params);
    const row = await t.runtime.storage.codes.findByHash(
      timedSecretKey(cb.searchParams.get('code')!),
    );
    expect([row!.redirectUri, row!.redirectUriGiven]).toEqual([CB, false]);
  });

  it('prompt=login and max_age ask for a sign-in made after the request', async () => {
    const person = await t.register();
    await consentOnce(person, base());
    const url = location(
      await authorizeGet(t, base({ prompt: 'login' }), person.token),
    );
    expect([url.pathname, url.searchParams.get('switch')]).toEqual([
      '/login',
      '1',
    ]);
    const next = url.searchParams.get('next')!;
    // The old session does not satisfy it; a new sign-in does.
    expect(
      location(
        await t.app.inject({
          method: 'GET',
          url: next,
          headers: { cookie: `ac_session=${person.token}` },
        }),
      ).pathname,
    ).toBe('/login');
    clock += 1000;
    const fresh = (
      await t.post('/api/v1/auth/login', {
        username: person.username,
        password: person.password,
      })
    ).json().access_token;
    const done = location(
      await t.app.inject({
        method: 'GET',
        url: next,
        headers: { cookie: `ac_session=${fresh}` },
      }),
    );
    expect(done.searchParams.get('code')).toBeTruthy();

    clock += 120_000;
    expect(
      location(
        await authorizeGet(t, base({ max_age: '60' }), fresh),
      ).searchParams.get('switch'),
    ).toBe('1');
    expect(
      location(
        await authorizeGet(t, base({ max_age: '3600' }), fresh),
      ).searchParams.get('code'),
    ).toBeTruthy();
    expectErrorRedirect(
      await authorizeGet(t, base({ max_age: '60', prompt: 'none' }), fresh),
      'login_required',
    );
  });

  it('a revoked, banned or foreign session counts as none', async () => {
    const person = await t.register();
    await consentOnce(person, base());
    await t.post('/api/v1/auth/logout', {}, person.token);
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' }), person.token),
      'login_required',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' }), 'a.b.c'),
      'login_required',
    );
  });

  it('form POST is the same endpoint; a broken or expired ticket gets the page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      payload: new URLSearchParams(base({ prompt: 'none' })).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectErrorRedirect(res, 'login_required');
    expectErrorPage(
      await t.app.inject({
        method: 'GET',
        url: '/oauth/authorize/resume?ticket=nope',
      }),
      '授权请求已失效',
    );
    const unreadable = await t.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      payload: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([
      unreadable.statusCode,
      unreadable.headers['x-frame-options'],
    ]).toEqual([415, 'DENY']);
    expect(unreadable.body).toContain('请求无法解析');
    const ticket = ticketOf(location(await authorizeGet(t, base())));
    clock += 11 * 60_000;
    expectErrorPage(
      await t.app.inject({
        method: 'GET',
        url: `/oauth/authorize/resume?ticket=${encodeURIComponent(ticket)}`,
      }),
      '授权请求已失效',
    );
  });
});
