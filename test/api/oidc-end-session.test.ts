import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  sessionCookie,
} from '../helpers/oidc-pages.js';

let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
let other: CreatedApp;
let clock = Date.now();
const CB = 'https://rp.example.com/cb';
const BYE = 'https://rp.example.com/bye?from=center';

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  dev = await t.register();
  rp = await createApp(t, dev, { redirect_uris: [CB] });
  other = await createApp(t, dev, { redirect_uris: [CB] });
  await t.runtime.storage.apps.update(
    rp.client_id,
    { postLogoutRedirectUris: [BYE] },
    clock,
  );
});
afterAll(async () => {
  await t.close();
});

async function idTokenFor(
  person: TestUser,
  clientId = rp.client_id,
): Promise<string> {
  const user = (await t.runtime.storage.users.findById(person.uid))!;
  return t.runtime.services.oidc.minter.id({
    user,
    clientId,
    scopes: ['openid'],
    authTimeMs: clock,
    nonce: null,
    accessToken: 'x',
  });
}

function endSession(
  params: Record<string, string>,
  token?: string,
  method: 'GET' | 'POST' = 'GET',
) {
  const q = new URLSearchParams(params).toString();
  const headers = token ? sessionCookie(token) : {};
  if (method === 'GET')
    return t.app.inject({ method, url: `/oauth/end_session?${q}`, headers });
  return t.app.inject({
    method,
    url: '/oauth/end_session',
    payload: q,
    headers: {
      ...headers,
      'content-type': 'application/x-www-form-urlencoded',
    },
  });
}

const signedIn = async (token: string) =>
  (await t.get('/api/v1/auth/me', token)).statusCode === 200;

describe('RP-initiated logout', () => {
  it('with an ID token hint: ends the session and goes back with state', async () => {
    const person = await t.register();
    const res = await endSession(
      {
        id_token_hint: await idTokenFor(person),
        post_logout_redirect_uri: BYE,
        state: 'xyz',
      },
      person.token,
    );
    const url = location(res);
    expect(url.href).toBe('https://rp.example.com/bye?from=center&state=xyz');
    expect(String(res.headers['set-cookie'])).toMatch(
      /^ac_session=;.*Max-Age=0/,
    );
    expect(await signedIn(person.token)).toBe(false);
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.end_session', actor: person.username },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({ target: rp.client_id });
    const silent = location(
      await authorizeGet(
        t,
        {
          response_type: 'code',
          client_id: rp.client_id,
          redirect_uri: CB,
          scope: 'openid',
          prompt: 'none',
        },
        person.token,
      ),
    );
    expect(silent.searchParams.get('error')).toBe('login_required');
  });

  it('an expired hint is accepted, by GET or form POST', async () => {
    const person = await t.register();
    const hint = await idTokenFor(person);
    clock += 3 * 3600_000;
    expect(
      location(
        await endSession(
          { id_token_hint: hint, post_logout_redirect_uri: BYE },
          person.token,
        ),
      ).href,
    ).toBe(BYE);
    const again = await t.register();
    const posted = await endSession(
      {
        id_token_hint: await idTokenFor(again),
        post_logout_redirect_uri: BYE,
        state: 's',
      },
      again.token,
      'POST',
    );
    expect(location(posted).searchParams.get('state')).toBe('s');
    expect(await signedIn(again.token)).toBe(false);
  });

  it('an address not registered for that client is not followed: the signed-out page', async () => {
    for (const [clientId, address] of [
      [rp.client_id, 'https://evil.example.com/'],
      [other.client_id, BYE],
    ] as const) {
      const person = await t.register();
      const res = await endSession(
        {
          id_token_hint: await idTokenFor(person, clientId),
          post_logout_redirect_uri: address,
        },
        person.token,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-security-policy']).toContain(
        "frame-ancestors 'none'",
      );
      expect(res.body).toContain('已退出登录');
      expect(res.body).toContain('未在该应用登记');
      expect(await signedIn(person.token)).toBe(false);
    }
    // Nobody signed in: nothing to end, and nothing to ask.
    expect((await endSession({})).body).toContain('已退出登录');
    expect(
      location(
        await endSession({
          client_id: rp.client_id,
          post_logout_redirect_uri: BYE,
          state: 'n',
        }),
      ).href,
    ).toBe(`${BYE}&state=n`);
  });

  it('a forged hint or a client_id that contradicts it is refused with a page, the session kept', async () => {
    const person = await t.register();
    const hint = await idTokenFor(person);
    const [h, p, s] = hint.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ iss: 'x', sub: '1', aud: rp.client_id })).toString('base64url')}.${s}`;
    for (const params of [
      { id_token_hint: forged },
      { id_token_hint: 'not-a-jwt' },
      { id_token_hint: hint, client_id: other.client_id },
    ] as Array<Record<string, string>>) {
      const res = await endSession(
        { ...params, post_logout_redirect_uri: BYE },
        person.token,
      );
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    expect(p).toBeTruthy();
    expect(await signedIn(person.token)).toBe(true);
  });
});

const CONFIRM = '/oauth/end_session/confirm';
const UNESCAPE: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The hidden fields of the confirmation page's form, as the browser would post them. */
function formOf(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
  ))
    fields[m[1]!] = m[2]!.replace(/&[a-z#0-9]+;/g, (e) => UNESCAPE[e] ?? e);
  return fields;
}

function postConfirm(fields: Record<string, string>, token?: string) {
  return t.app.inject({
    method: 'POST',
    url: CONFIRM,
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? sessionCookie(token) : {}),
    },
  });
}

function expectConfirmationPage(res: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): void {
  expect(res.statusCode).toBe(200);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.body).toContain('<h1>退出登录？</h1>');
  expect(res.body).toMatch(
    /<button[^>]*name="decision" value="confirm">确认退出<\/button>/,
  );
  expect(res.body).toMatch(
    /<button[^>]*name="decision" value="cancel">取消<\/button>/,
  );
  expect(res.body).toContain(`<form method="post" action="${CONFIRM}">`);
  expect(res.body).not.toContain('<script');
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  expect(res.headers['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  );
}

describe('RP-initiated logout without a hint of the signed-in person: the confirmation page', () => {
  it('a plain GET or POST without a hint ends nothing and asks', async () => {
    const person = await t.register();
    for (const [params, method] of [
      [{}, 'GET'],
      [
        { client_id: rp.client_id, post_logout_redirect_uri: BYE, state: 's' },
        'GET',
      ],
      [{ post_logout_redirect_uri: BYE }, 'POST'],
    ] as const) {
      const res = await endSession(params, person.token, method);
      expectConfirmationPage(res);
      expect(await signedIn(person.token)).toBe(true);
    }
    const withTarget = await endSession(
      { client_id: rp.client_id, post_logout_redirect_uri: BYE, state: 's' },
      person.token,
    );
    // The form's answer may only redirect to the registered address.
    expect(withTarget.headers['content-security-policy']).toContain(
      "form-action 'self' https://rp.example.com;",
    );
    expect(formOf(withTarget.body)).toMatchObject({
      client_id: rp.client_id,
      post_logout_redirect_uri: BYE,
      state: 's',
    });
    const unregistered = await endSession(
      {
        client_id: rp.client_id,
        post_logout_redirect_uri: 'https://evil.example.com/',
      },
      person.token,
    );
    expect(unregistered.headers['content-security-policy']).toContain(
      "form-action 'self';",
    );
    expect(formOf(unregistered.body).post_logout_redirect_uri).toBeUndefined();
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.end_session', actor: person.username },
      0,
      5,
    );
    expect(audit.entries).toEqual([]);
  });

  it('a valid hint naming someone else ends nobody’s session', async () => {
    const [a, b] = [await t.register(), await t.register()];
    const res = await endSession(
      {
        id_token_hint: await idTokenFor(b),
        post_logout_redirect_uri: BYE,
        state: 'x',
      },
      a.token,
    );
    expectConfirmationPage(res);
    expect(res.body).toContain(a.username);
    expect(await signedIn(a.token)).toBe(true);
    expect(await signedIn(b.token)).toBe(true);
    // The hint's client is carried to the form, so confirming returns there.
    expect(formOf(res.body)).toMatchObject({
      client_id: rp.client_id,
      post_logout_redirect_uri: BYE,
      state: 'x',
    });
  });

  it('confirming needs this session’s CSRF token; with it the session ends and the browser returns with state', async () => {
    const [person, someone] = [await t.register(), await t.register()];
    const fields = formOf(
      (
        await endSession(
          {
            client_id: rp.client_id,
            post_logout_redirect_uri: BYE,
            state: 'st',
          },
          person.token,
        )
      ).body,
    );
    const theirs = formOf((await endSession({}, someone.token)).body);
    expect(fields.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const csrf of [
      undefined,
      '',
      'x'.repeat(43),
      theirs.csrf_token!,
      fields.csrf_token!.slice(0, -1),
    ]) {
      const { csrf_token: _, ...rest } = fields;
      const res = await postConfirm(
        {
          ...rest,
          ...(csrf === undefined ? {} : { csrf_token: csrf }),
          decision: 'confirm',
        },
        person.token,
      );
      expect([
        res.statusCode,
        res.headers.location,
        res.headers['set-cookie'],
      ]).toEqual([403, undefined, undefined]);
      expect(res.body).toContain('退出确认已失效');
    }
    expect(await signedIn(person.token)).toBe(true);
    // The token alone, without the session cookie, ends nothing either.
    expect(
      (await postConfirm({ ...fields, decision: 'confirm' })).headers.location,
    ).toBe(`${BYE}&state=st`);
    expect(await signedIn(person.token)).toBe(true);

    const res = await postConfirm(
      { ...fields, decision: 'confirm' },
      person.token,
    );
    expect(location(res).href).toBe(`${BYE}&state=st`);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^ac_session=;.*Max-Age=0/,
    );
    expect(await signedIn(person.token)).toBe(false);
    expect(await signedIn(someone.token)).toBe(true);
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.end_session', actor: person.username },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({ target: rp.client_id });
  });

  it('取消 ends nothing and returns to the registered address with state, or to the home page', async () => {
    const person = await t.register();
    const fields = formOf(
      (
        await endSession(
          {
            client_id: rp.client_id,
            post_logout_redirect_uri: BYE,
            state: 'c',
          },
          person.token,
        )
      ).body,
    );
    const back = await postConfirm(
      { ...fields, decision: 'cancel' },
      person.token,
    );
    expect([location(back).href, back.headers['set-cookie']]).toEqual([
      `${BYE}&state=c`,
      undefined,
    ]);
    const home = await postConfirm(
      {
        ...formOf((await endSession({}, person.token)).body),
        decision: 'cancel',
      },
      person.token,
    );
    expect(home.headers.location).toBe('/');
    // An address the form did not get from the center is not followed.
    const forged = await postConfirm(
      {
        ...fields,
        post_logout_redirect_uri: 'https://evil.example.com/',
        decision: 'cancel',
      },
      person.token,
    );
    expect(forged.headers.location).toBe('/');
    expect(await signedIn(person.token)).toBe(true);
  });
});
