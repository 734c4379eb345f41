import { generate } from 'otplib';
import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { authorizeGet, location } from '../helpers/oidc-pages.js';
import {
  certificationFlows,
  startCertificationApp,
} from './oidc-certification-setup.js';

/**
 * The requests of the OpenID Foundation's Basic OP and Config OP plans that concern request
 * objects, the `profile` claims, `acr_values` / `acr` and the `claims` request parameter,
 * made as a relying party (oauth4webapi) makes them.
 */
const A = '/api/v1/auth';
const STEP_MS = 30_000;
let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
let as: oauth.AuthorizationServer;
// A moving clock, so every authenticator code below falls in a step of its own.
let clock = Date.UTC(2031, 0, 1, 12, 0, 0);

beforeAll(async () => {
  ({ t, dev, rp, as } = await startCertificationApp(() => clock));
});
afterAll(async () => {
  await t.close();
});

const { base, signIn, userInfo, expectCallbackError } = certificationFlows(
  () => ({ t, dev, rp, as }),
);

describe('the claims request parameter (Core §5.5)', () => {
  it('an essential name asked for UserInfo with scope openid alone is consented to and released', async () => {
    expect(as.claims_parameter_supported).toBe(true);
    const user = await t.register();
    const claims = JSON.stringify({
      userinfo: { name: { essential: true } },
      id_token: { email: null },
    });
    const { tokens, id, shown } = await signIn(user, { claims });
    // The person is asked for the claims' scopes, so nothing is released without consent.
    expect(shown).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email']),
    );
    expect(await userInfo(tokens.access_token)).toMatchObject({
      sub: String(user.uid),
      name: expect.any(String),
    });
    expect(id.email).toBe(user.email);
  });

  it('claim names of the object prototype ask for nothing', async () => {
    const user = await t.register();
    const claims =
      '{"userinfo":{"__proto__":null,"constructor":null,"toString":{"essential":true}}}';
    const { tokens, shown } = await signIn(user, { claims });
    expect(shown).toEqual(['openid']);
    expect(await userInfo(tokens.access_token)).toEqual({
      sub: String(user.uid),
    });
  });

  it('a claims value that is not a JSON object is invalid_request at the callback', async () => {
    for (const claims of [
      '{',
      '[]',
      '"name"',
      JSON.stringify({ userinfo: [] }),
    ]) {
      expectCallbackError(
        await authorizeGet(t, base({ claims }), dev.token),
        'invalid_request',
      );
    }
  });
});

describe('acr (Core §2, §3.1.2.1, §5.5.1.1)', () => {
  const codeAt = (secret: string) =>
    generate({ secret, epoch: Math.floor(clock / 1000) });

  /** A user with the authenticator on, signed in again with password and code: that sign-in's token. */
  async function signedInWithSecondFactor(): Promise<TestUser> {
    const u = await t.register();
    const { secret } = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await t.post(
          `${A}/account/totp/enable`,
          { code: await codeAt(secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    clock += STEP_MS;
    const login = await t.post(`${A}/login`, {
      username: u.username,
      password: u.password,
      otp: await codeAt(secret),
    });
    expect(login.statusCode, login.body).toBe(200);
    clock += STEP_MS;
    return { ...u, token: login.json().access_token };
  }

  it('discovery names the values; a password sign-in is acr 1, one with a second factor acr 2 with amr mfa', async () => {
    expect(as.acr_values_supported).toEqual(['1', '2']);
    const plain = await t.register();
    const one = await signIn(plain, { acr_values: '2 1' });
    expect(one.id.acr).toBe('1');
    expect(one.id.amr).toBeUndefined();
    const strong = await signedInWithSecondFactor();
    const two = await signIn(strong, { acr_values: '2' });
    expect(two.id.acr).toBe('2');
    expect(two.id.amr).toEqual(expect.arrayContaining(['otp', 'mfa']));
  });

  it('an essential acr the sign-in does not meet: login_required with prompt=none, a new sign-in otherwise', async () => {
    const plain = await t.register();
    const claims = JSON.stringify({
      id_token: { acr: { essential: true, values: ['2'] } },
    });
    await signIn(plain, {});
    expectCallbackError(
      await authorizeGet(t, base({ claims, prompt: 'none' }), plain.token),
      'login_required',
    );
    expect(
      location(await authorizeGet(t, base({ claims }), plain.token)).pathname,
    ).toBe('/login');
    // Met by a sign-in with the second factor: answered at once.
    const strong = await signedInWithSecondFactor();
    await signIn(strong, {});
    const met = await signIn(strong, { claims, prompt: 'none' });
    expect(met.id.acr).toBe('2');
  });
});
