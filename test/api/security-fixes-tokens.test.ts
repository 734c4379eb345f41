import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';

/** Runs on SQLite and on PostgreSQL: each test reproduces one attack through the public interface. */
const AUTH = '/api/v1/auth';
let clock = Date.now();
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  owner = await t.register();
});
afterAll(async () => {
  await t.close();
});

/** A token for `owner` in the app `client_id`, through /authorize and /exchange. */
async function appToken(
  client_id: string,
  client_secret: string,
  redirect_uri: string,
): Promise<string> {
  const code = (
    await t.post(`${AUTH}/authorize`, { client_id, redirect_uri }, owner.token)
  ).json().data.code;
  return (
    await t.post(`${AUTH}/exchange`, { client_id, client_secret, code })
  ).json().access_token;
}

/** A new app of `owner`'s with the one callback `redirect_uri`, and a token in it. */
async function newAppWithToken(display_name: string, redirect_uri: string) {
  const created = await t.post(
    `${AUTH}/apps`,
    { display_name, redirect_uris: [redirect_uri] },
    owner.token,
  );
  const { client_id, client_secret } = created.json().data;
  const token = await appToken(client_id, client_secret, redirect_uri);
  return { client_id, client_secret, token };
}

describe('logout {all:true} acts only for a token that me accepts (docs/api.md §3)', () => {
  const meStatus = async (token: string) =>
    (await t.get(`${AUTH}/me`, token)).statusCode;

  it('a revoked token cannot sign the user out everywhere', async () => {
    const u = await t.register();
    const stolen = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: u.password,
      })
    ).json().access_token;
    expect((await t.post(`${AUTH}/logout`, {}, stolen)).statusCode).toBe(200);
    clock += 5;
    const res = await t.post(`${AUTH}/logout`, { all: true }, stolen);
    expect([res.statusCode, res.json()]).toEqual([200, { ok: true, data: {} }]);
    expect(await meStatus(u.token)).toBe(200);
  });

  it('a game token from before a password reset cannot either; a live token still can', async () => {
    const u = await t.register();
    const game = (await t.post(`${AUTH}/game_token`, {}, u.token)).json()
      .access_token;
    await t.post(`${AUTH}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await t.smtp.codeFor(u.email);
    clock += 5;
    expect(
      (
        await t.post(`${AUTH}/reset_password`, {
          email: u.email,
          code,
          new_password: 'a brand new password',
        })
      ).statusCode,
    ).toBe(200);
    clock += 5;
    const fresh = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: 'a brand new password',
      })
    ).json().access_token;
    clock += 5;
    for (let i = 0; i < 3; i++)
      expect(
        (await t.post(`${AUTH}/logout`, { all: true }, game)).statusCode,
      ).toBe(200);
    expect(await meStatus(fresh)).toBe(200);
    const other = (
      await t.post(`${AUTH}/login`, {
        username: u.username,
        password: 'a brand new password',
      })
    ).json().access_token;
    clock += 5;
    expect(
      (await t.post(`${AUTH}/logout`, { all: true }, fresh)).statusCode,
    ).toBe(200);
    expect(await meStatus(other)).toBe(401);
  });
});

describe('a disabled app: its tokens stop at me and refresh (docs/api.md §4.3, §3)', () => {
  it('403 该应用已被停用 at once on this instance; enabling restores them', async () => {
    const { client_id, client_secret, token } = await newAppWithToken(
      'Soon Off',
      'https://off.example.com/cb',
    );
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          `${AUTH}/apps/disable`,
          { client_id, enabled: false },
          owner.token,
        )
      ).json().data.status,
    ).toBe('disabled');
    const disabled = { ok: false, msg: '该应用已被停用' };
    const me = await t.get(`${AUTH}/me`, token);
    expect([me.statusCode, me.json()]).toEqual([403, disabled]);
    const refresh = await t.post(`${AUTH}/refresh`, {}, token);
    expect([refresh.statusCode, refresh.json()]).toEqual([403, disabled]);
    // A sign-out-everywhere with it does nothing either.
    await t.post(`${AUTH}/logout`, { all: true }, token);
    expect((await t.get(`${AUTH}/me`, owner.token)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          `${AUTH}/apps/disable`,
          { client_id, enabled: true },
          owner.token,
        )
      ).json().data.status,
    ).toBe('active');
    const token2 = await appToken(
      client_id,
      client_secret,
      'https://off.example.com/cb',
    );
    expect((await t.get(`${AUTH}/me`, token2)).statusCode).toBe(200);
    expect((await t.post(`${AUTH}/refresh`, {}, token2)).statusCode).toBe(200);
  });

  it("an app disabled behind this instance's back (another instance) is refused within the cache bound", async () => {
    const { client_id, token } = await newAppWithToken(
      'Elsewhere',
      'https://else.example.com/cb',
    );
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(200);
    // Written straight to the database, as another instance without a shared bus would.
    await t.runtime.storage.apps.update(
      client_id,
      { status: 'disabled' },
      clock,
    );
    clock += 4001;
    expect((await t.get(`${AUTH}/me`, token)).statusCode).toBe(403);
  });
});
