import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, pkcePair, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';
import { timedSecretKey } from '../../src/platform/crypto/random.js';

let t: TestApp;
let dev: TestUser;
let conf: CreatedApp;
let pub: CreatedApp;
let two: CreatedApp;
let clock = Date.now();
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const PUB_CB = 'http://127.0.0.1:5173/cb';

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
  dev = await t.register();
  conf = await createApp(t, dev, {
    redirect_uris: [CB],
    scopes: ['forum.read'],
  });
  pub = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: [PUB_CB],
  });
  two = await createApp(t, dev, {
    redirect_uris: [CB, 'https://rp.example.com/other'],
  });
});
afterAll(async () => {
  await t.close();
});

const base = (extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: conf.client_id,
  redirect_uri: CB,
  scope: 'openid profile',
  state: 'st-1',
  ...extra,
});

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

/** Checks an error redirect: the callback with error, error_description, state and iss. */
function expectErrorRedirect(
  res: Awaited<ReturnType<typeof authorizeGet>>,
  error: string,
  redirect = CB,
  state: string | null = 'st-1',
) {
  const url = location(res);
  expect(url.origin + url.pathname).toBe(redirect);
  expect(url.searchParams.get('error')).toBe(error);
  expect(url.searchParams.get('error_description')).toMatch(
    /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/,
  );
  expect(url.searchParams.get('state')).toBe(state);
  expect(url.searchParams.get('iss')).toBe(ISSUER);
  expect(url.searchParams.has('code')).toBe(false);
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

describe('authorization endpoint: errors shown on a page, never redirected', () => {
  it('unknown, reserved, disabled or missing client', async () => {
    expectErrorPage(
      await authorizeGet(t, base({ client_id: 'no-such-app' })),
      '未知的应用',
    );
    expectErrorPage(
      await authorizeGet(t, base({ client_id: 'account-center' })),
      '未知的应用',
    );
    const { client_id: _, ...noClient } = base();
    expectErrorPage(
      await authorizeGet(t, noClient),
      '授权请求缺少参数：client_id',
    );
    const off = await createApp(t, dev, { redirect_uris: [CB] });
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id, enabled: false },
      dev.token,
    );
    expectErrorPage(
      await authorizeGet(t, base({ client_id: off.client_id })),
      '该应用已被停用',
    );
  });

  it('a callback that is not registered exactly, or omitted while several are', async () => {
    for (const uri of [
      'https://evil.example.com/cb',
      `${CB}/`,
      `${CB}?x=1`,
      'https://RP.example.com/cb',
      'not a url',
    ]) {
      expectErrorPage(
        await authorizeGet(
          t,
          base({ redirect_uri: uri, response_type: 'token' }),
        ),
        '回调地址不在白名单内',
      );
    }
    const { redirect_uri: _, ...noRedirect } = base({
      client_id: two.client_id,
    });
    expectErrorPage(
      await authorizeGet(t, noRedirect),
      '授权请求缺少参数：redirect_uri',
    );
  });

  it('client_id or redirect_uri sent twice', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/oauth/authorize?client_id=${conf.client_id}&client_id=x&redirect_uri=${encodeURIComponent(CB)}`,
    });
    expectErrorPage(res, '授权请求的参数重复：client_id');
  });
});

describe('authorization endpoint: errors redirected with state and iss', () => {
  it('response_type', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ response_type: 'token' })),
      'unsupported_response_type',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ response_type: 'code id_token' })),
      'unsupported_response_type',
    );
    const { response_type: _, ...none } = base();
    expectErrorRedirect(await authorizeGet(t, none), 'invalid_request');
  });

  it('scope outside the client and the standard set, or missing', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ scope: 'openid admin' })),
      'invalid_scope',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ scope: 'openid bad!name' })),
      'invalid_scope',
    );
    const { scope: _, ...noScope } = base();
    expectErrorRedirect(await authorizeGet(t, noScope), 'invalid_request');
    // The client's own scope and the standard ones pass.
    expect(
      location(
        await authorizeGet(
          t,
          base({ scope: 'openid forum.read email offline_access' }),
        ),
      ).pathname,
    ).toBe('/login');
  });

  it('PKCE: required for public clients, S256 only, well-formed', async () => {
    const p = { client_id: pub.client_id, redirect_uri: PUB_CB };
    expectErrorRedirect(
      await authorizeGet(t, base(p)),
      'invalid_request',
      PUB_CB,
    );
    const { challenge } = pkcePair();
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({
          ...p,
          code_challenge: challenge,
          code_challenge_method: 'plain',
        }),
      ),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ ...p, code_challenge: challenge })),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({ ...p, code_challenge: 'short', code_challenge_method: 'S256' }),
      ),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ code_challenge_method: 'S256' })),
      'invalid_request',
    );
    expect(
      location(
        await authorizeGet(
          t,
          base({
            ...p,
            code_challenge: challenge,
            code_challenge_method: 'S256',
          }),
        ),
      ).pathname,
    ).toBe('/login');
  });

  it('prompt, max_age, repeated parameters, request objects', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none login' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'sometimes' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ max_age: '-1' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ max_age: 'soon' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ request: 'eyJ.x.y' })),
      'request_not_supported',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ request_uri: 'https://x.example/r' })),
      'request_uri_not_supported',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ response_mode: 'fragment' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ nonce: 'n'.repeat(513) })),
      'invalid_request',
    );
    // The longest values accepted still fit through the sign-in page's ticket.
    const long = location(
      await authorizeGet(
        t,
        base({
          state: 's'.repeat(2048),
          nonce: 'n'.repeat(512),
          login_hint: 'h'.repeat(256),
        }),
      ),
    );
    expect(long.pathname).toBe('/login');
    expect(long.href.length).toBeLessThan(12_000);
    const state = 's'.repeat(2049);
    expectErrorRedirect(
      await authorizeGet(t, base({ state })),
      'invalid_request',
      CB,
      state,
    );
    const dup = await t.app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams(base()).toString()}&scope=email`,
    });
    expectErrorRedirect(dup, 'invalid_request');
  });

  it('prompt=none: login_required without a session, consent_required without consent', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' })),
      'login_required',
    );
    const person = await t.register();
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' }), person.token),
      'consent_required',
    );
    // A callback that already has a query keeps it.
    const withQuery = await createApp(t, dev, {
      redirect_uris: ['https://rp.example.com/cb?tenant=7'],
    });
    const url = location(
      await authorizeGet(
        t,
        base({
          client_id: withQuery.client_id,
          redirect_uri: 'https://rp.example.com/cb?tenant=7',
          prompt: 'none',
        }),
      ),
    );
    expect([
      url.searchParams.get('tenant'),
      url.searchParams.get('error'),
    ]).toEqual(['7', 'login_required']);
  });

  it('a client without the authorization_code grant: unauthorized_client', async () => {
    const device = await createApp(t, dev, {
      redirect_uris: [CB],
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
    });
    expectErrorRedirect(
      await authorizeGet(t, base({ client_id: device.client_id })),
      'unauthorized_client',
    );
  });

  it('a redirect-class error with no state omits it', async () => {
    const { state: _, ...noState } = base({ response_type: 'token' });
    expectErrorRedirect(
      await authorizeGet(t, noState),
      'unsupported_response_type',
      CB,
      null,
    );
  });
});

describe('authorization endpoint: sign-in, consent and the code', () => {
  it('no session: to the sign-in page with the ticket and the login hint', async () => {
    const url = location(
      await authorizeGet(t, base({ login_hint: 'alice@example.com' })),
    );
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('next')).toMatch(
      /^\/oauth\/authorize\/resume\?ticket=/,
    );
    expect(url.searchParams.get('login_hint')).toBe('alice@example.com');
    expect(url.searchParams.has('switch')).toBe(false);
    // Back from the sign-in page with a session: on to the consent page.
    const person = await t.register();
    const resume = await t.app.inject({
      method: 'GET',
      url: url.searchParams.get('next')!,
      headers: { cookie: `ac_session=${person.token}` },
    });
    expect(location(resume).pathname).toBe('/authorize');
  });

  it('consent issues a single-use oidc code bound to nonce, PKCE and sign-in time; the next request skips the page', async () => {
    const person = await t.register();
    const { challenge } = pkcePair();
    const params = base({
      nonce: 'n-0S6_WzA2Mj',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'a b&c',
    });
    const first = location(await authorizeGet(t, params, person.token));
    const ticket = ticketOf(first);
    const view = await pagesPost(
      t,
      '/oauth/interaction',
      { ticket },
      person.token,
    );
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toMatchObject({
      client_id: conf.client_id,
      scopes: ['openid', 'profile'],
      redirect_uri: CB,
      user: { username: person.username },
    });

    const done = await pagesPost(
      t,
      '/oauth/consent',
      { ticket, decision: 'allow' },
      person.token,
    );
    const cb = new URL(done.json().data.redirect_to);
    expect(cb.origin + cb.pathname).toBe(CB);
    expect([cb.searchParams.get('state'), cb.searchParams.get('iss')]).toEqual([
      'a b&c',
      ISSUER,
    ]);
    const code = cb.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{50}$/);
    const row = await t.runtime.storage.codes.findByHash(timedSecretKey(code));
    expect(row).toMatchObject({
      flow: 'oidc',
      nonce: 'n-0S6_WzA2Mj',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      redirectUri: CB,
      redirectUriGiven: true,
      scope: 'openid profile',
      userId: person.uid,
      clientId: conf.client_id,
      usedAt: null,
    });
    expect(row!.expiresAt - row!.createdAt).toBe(120_000);
    expect(row!.authTime).toBeGreaterThan(0);

    // Remembered: the same scopes (or fewer) get a code at once, prompt=none too.
    for (const extra of [{}, { scope: 'openid' }, { prompt: 'none' }] as Array<
      Record<string, string>
    >) {
      const again = location(await authorizeGet(t, base(extra), person.token));
      expect(again.origin + again.pathname).toBe(CB);
      expect(again.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{50}$/);
      expect(again.searchParams.get('iss')).toBe(ISSUER);
    }
    // New scopes, prompt=consent or select_account ask again.
    for (const extra of [
      { scope: 'openid email' },
      { prompt: 'consent' },
      { prompt: 'select_account' },
    ] as Array<Record<string, string>>) {
      expect(
        location(await authorizeGet(t, base(extra), person.token)).pathname,
      ).toBe('/authorize');
    }
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({ scope: 'openid email', prompt: 'none' }),
        person.token,
      ),
      'consent_required',
    );
  });

  it('refusing sends access_denied with state and iss', async () => {
    const person = await t.register();
    const ticket = ticketOf(
      location(await authorizeGet(t, base(), person.token)),
    );
    const res = await pagesPost(
      t,
      '/oauth/consent',
      { ticket, decision: 'deny' },
      person.token,
    );
    const url = new URL(res.json().data.redirect_to);
    expect([
      url.searchParams.get('error'),
      url.searchParams.get('state'),
      url.searchParams.get('iss'),
    ]).toEqual(['access_denied', 'st-1', ISSUER]);
    expect(url.searchParams.has('code')).toBe(false);
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.consent.deny', actor: person.username },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({
      target: conf.client_id,
      detail: { scope: 'openid profile' },
    });
  });

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

describe('authorization endpoint: failures of ours', () => {
  it('a database failure answers the error page with 500, then recovers', async () => {
    const apps = t.runtime.storage.apps;
    const original = apps.findById.bind(apps);
    apps.findById = () => Promise.reject(new Error('database is down'));
    try {
      const res = await authorizeGet(t, base());
      expect([
        res.statusCode,
        res.headers.location,
        res.headers['x-frame-options'],
      ]).toEqual([500, undefined, 'DENY']);
      expect(res.body).toContain('服务器内部错误');
      expect(res.body).not.toContain('database is down');
    } finally {
      apps.findById = original;
    }
    expect(location(await authorizeGet(t, base())).pathname).toBe('/login');
  });
});

describe('browser session and consent helpers', () => {
  it('POST /oauth/session keeps a first-party token in an HttpOnly cookie; /end clears it', async () => {
    const person = await t.register();
    const res = await t.post('/oauth/session', undefined, person.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, data: {} });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      new RegExp(`^ac_session=${person.token.replace(/\./g, '\\.')};`),
    );
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Secure/); // BASE_URL is https here
    expect(cookie).toMatch(/Max-Age=\d+/);
    const end = await t.post('/oauth/session/end');
    expect(String(end.headers['set-cookie'])).toMatch(
      /^ac_session=;.*Max-Age=0/,
    );
  });

  it('refuses tokens that are not first-party, missing or bad', async () => {
    expect((await t.post('/oauth/session')).statusCode).toBe(401);
    expect((await t.post('/oauth/session', undefined, 'x.y.z')).json()).toEqual(
      { ok: false, msg: '令牌无效或已过期' },
    );
  });

  it('interaction and consent: JSON only, a session, a real ticket', async () => {
    const person = await t.register();
    const ticket = ticketOf(
      location(await authorizeGet(t, base(), person.token)),
    );
    expect(
      (await pagesPost(t, '/oauth/interaction', { ticket })).statusCode,
    ).toBe(401);
    expect(
      (await pagesPost(t, '/oauth/consent', { ticket, decision: 'allow' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await pagesPost(
          t,
          '/oauth/interaction',
          { ticket: 'forged' },
          person.token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '授权请求已失效，请返回应用重新登录' });
    expect(
      (
        await pagesPost(
          t,
          '/oauth/consent',
          { ticket, decision: 'maybe' },
          person.token,
        )
      ).statusCode,
    ).toBe(400);
    const form = await t.app.inject({
      method: 'POST',
      url: '/oauth/consent',
      payload: `ticket=${encodeURIComponent(ticket)}&decision=allow`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `ac_session=${person.token}`,
      },
    });
    expect(form.statusCode).toBe(415);
  });
});
