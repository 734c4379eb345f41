import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { authorizeGet, location } from '../helpers/oidc-pages.js';
import { BYE, CB, endSessionRequests } from './oidc-end-session-setup.js';

let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
let other: CreatedApp;
let clock = Date.now();

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

const { idTokenFor, endSession, signedIn } = endSessionRequests(() => ({
  t,
  rp,
  clock,
}));

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
