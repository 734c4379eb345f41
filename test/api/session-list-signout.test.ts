import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { sessionCookie } from '../helpers/oidc-pages.js';
import { jwtClaims } from '../helpers/jwt.js';

const A = '/api/v1/auth';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = async (u: TestUser, password = u.password) =>
  (await t.post(`${A}/login`, { username: u.username, password })).json()
    .access_token as string;
const listed = async (token: string) =>
  (
    (await t.get(`${A}/account/sessions`, token)).json().data
      .sessions as Array<{ id: string }>
  ).map((s) => s.id);
const works = async (token: string) =>
  (await t.get(`${A}/me`, token)).statusCode === 200;

/** An ID token of `person`, as a relying party holds it, to sign out at the end-session endpoint. */
async function idTokenFor(person: TestUser): Promise<string> {
  const rp = await createApp(t, person, {
    redirect_uris: ['https://rp.example.com/cb'],
  });
  const user = (await t.runtime.storage.users.findById(person.uid))!;
  return t.runtime.services.oidc.minter.id({
    user,
    clientId: rp.client_id,
    scopes: ['openid'],
    authTimeMs: Date.now(),
    nonce: null,
    accessToken: 'x',
  });
}

describe('a session whose token was revoked is not listed as live (docs/api.md §10)', () => {
  it('signing out in the browser (end-session with the session cookie)', async () => {
    const u = await t.register();
    const browser = await login(u);
    const refreshed = (await t.post(`${A}/refresh`, {}, browser)).json()
      .access_token as string;
    expect(await listed(u.token)).toContain(jwtClaims(browser).sid);
    const hint = await idTokenFor(u);
    const res = await t.app.inject({
      method: 'GET',
      url: `/oauth/end_session?id_token_hint=${hint}`,
      headers: sessionCookie(browser),
    });
    expect(res.statusCode).toBeLessThan(400);
    expect(await works(browser)).toBe(false);
    // The whole sign-in ends, not only the cookie's token: its refreshed sibling too.
    expect(await works(refreshed)).toBe(false);
    expect(await listed(u.token)).toEqual([jwtClaims(u.token).sid]);
  });

  it('logout, logout everywhere, password reset and a password change that ends the others', async () => {
    const u = await t.register();
    const a = await login(u);
    await t.post(`${A}/logout`, {}, a);
    expect(await listed(u.token)).toEqual([jwtClaims(u.token).sid]);

    const b = await login(u);
    await t.post(`${A}/logout`, { all: true }, b);
    const c = await login(u);
    expect(await listed(c)).toEqual([jwtClaims(c).sid]);

    await t.post(`${A}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await t.smtp.codeFor(u.email);
    expect(
      (
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code,
          new_password: 'after reset password',
        })
      ).statusCode,
    ).toBe(200);
    expect(await works(c)).toBe(false);
    const d = await login(u, 'after reset password');
    expect(await listed(d)).toEqual([jwtClaims(d).sid]);

    const e = await login(u, 'after reset password');
    const changed = await t.post(
      `${A}/account/password`,
      {
        current_password: 'after reset password',
        new_password: 'after change password',
      },
      d,
    );
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().access_token as string;
    expect(await works(e)).toBe(false);
    expect(await listed(fresh)).toEqual([jwtClaims(fresh).sid]);
  });
});
