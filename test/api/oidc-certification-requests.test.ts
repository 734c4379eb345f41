import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { authorizeGet } from '../helpers/oidc-pages.js';
import {
  CB,
  certificationFlows,
  ISSUER,
  startCertificationApp,
} from './oidc-certification-setup.js';

/**
 * The requests of the OpenID Foundation's Basic OP and Config OP plans that concern request
 * objects, the `profile` claims, `acr_values` / `acr` and the `claims` request parameter,
 * made as a relying party (oauth4webapi) makes them.
 */
let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
let as: oauth.AuthorizationServer;
// A moving clock, so every authenticator code below falls in a step of its own.
const clock = Date.UTC(2031, 0, 1, 12, 0, 0);

beforeAll(async () => {
  ({ t, dev, rp, as } = await startCertificationApp(() => clock));
});
afterAll(async () => {
  await t.close();
});

const { base, signIn, userInfo, expectCallbackError } = certificationFlows(
  () => ({ t, dev, rp, as }),
);

/** An unsigned (`alg: none`) request object as the conformance suite builds it. */
function unsignedRequestObject(claims: Record<string, unknown>): string {
  const part = (o: object) =>
    Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

describe('request objects (Core §6.1)', () => {
  it("an unsigned request object of the suite's length is answered request_not_supported at the callback", async () => {
    expect(as.request_parameter_supported).toBe(false);
    expect(as.request_uri_parameter_supported).toBe(false);
    const request = unsignedRequestObject({
      iss: rp.client_id,
      aud: ISSUER,
      response_type: 'code',
      client_id: rp.client_id,
      redirect_uri: CB,
      scope: 'openid',
      state: 'st-9',
      nonce: 'n-9',
      claims: { userinfo: { name: { essential: true } } },
    });
    expect(request.length).toBeGreaterThan(270);
    expectCallbackError(
      await authorizeGet(t, base({ request })),
      'request_not_supported',
    );
  });

  it('a long request_uri is answered request_uri_not_supported at the callback', async () => {
    const requestUri = `https://rp.example.com/requests/${'r'.repeat(300)}`;
    expectCallbackError(
      await authorizeGet(t, base({ request_uri: requestUri })),
      'request_uri_not_supported',
    );
  });
});

describe('the profile claims (Core §5.1, §5.4)', () => {
  it('UserInfo and the ID token carry name, preferred_username and updated_at; discovery lists them', async () => {
    const user = await t.register();
    const { tokens, id } = await signIn(user, { scope: 'openid profile' });
    const info = await userInfo(tokens.access_token);
    expect(info).toMatchObject({
      sub: String(user.uid),
      name: expect.any(String),
      preferred_username: user.username,
      updated_at: expect.any(Number),
    });
    expect(info.updated_at).toBeLessThanOrEqual(Math.floor(clock / 1000));
    expect(id).toMatchObject({
      name: info.name,
      preferred_username: user.username,
      updated_at: info.updated_at,
    });
    expect(as.claims_supported).toEqual(
      expect.arrayContaining([
        'name',
        'preferred_username',
        'updated_at',
        'acr',
      ]),
    );
  });

  it('with scope email an ID token is issued with the access token and still carries email; UserInfo too', async () => {
    const user = await t.register();
    const { tokens, id } = await signIn(user, { scope: 'openid email' });
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(id).toMatchObject({
      email: user.email,
      email_verified: expect.any(Boolean),
    });
    expect(await userInfo(tokens.access_token)).toMatchObject({
      email: user.email,
      email_verified: id.email_verified,
    });
  });
});
