import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  finish,
  signInThrough,
  throughProvider,
  userCount,
} from '../helpers/upstream/flow.js';
import {
  startOidcForger,
  type IdTokenMode,
  type OidcForger,
} from '../helpers/upstream/oidc-token-forger.js';

/**
 * The ID token of an OpenID Connect provider (docs/api.md §14.2): its signature is checked
 * against the provider's JWKS, even though it came straight from the token endpoint, and
 * `iss`, `aud`, `exp` and `nonce` are checked. A token that fails any of these signs nobody in.
 */
let center: ListeningCenter;
let admin: TestUser;
let forger: OidcForger;

beforeAll(async () => {
  [center, forger] = await Promise.all([listeningCenter(), startOidcForger()]);
  admin = await center.admin();
  await addProvider(center, admin, {
    id: 'idp',
    type: 'oidc',
    name: 'IdP',
    client_id: forger.clientId,
    client_secret: forger.clientSecret,
    issuer: forger.issuer,
  });
});
afterAll(async () => {
  await forger?.close();
  await center?.close();
});

describe('the ID token of an OpenID Connect provider', () => {
  it('signed with a foreign key under the JWKS key id: refused, nobody signed in, nothing created', async () => {
    forger.signInAs({
      id: 'sub-foreign',
      preferred_username: 'foreign',
      email: 'foreign@idp.example',
      email_verified: true,
    });
    forger.idToken = 'foreignKey';
    const before = await userCount(center, admin);
    const jar = new CookieJar();
    const page = await throughProvider(center, 'idp', jar);
    expect(page).toMatchObject({
      status: 400,
      result: 'error',
      message: 'IdP 未能完成登录，请稍后重试。',
    });
    expect((await finish(center, page.ticket, jar)).status).toBe(400);
    expect(await userCount(center, admin)).toBe(before);
  });

  it('unsigned (alg none), with a wrong nonce, audience or issuer, or expired: refused', async () => {
    const before = await userCount(center, admin);
    for (const mode of [
      'none',
      'wrongNonce',
      'wrongAud',
      'wrongIss',
      'expired',
    ] as IdTokenMode[]) {
      forger.signInAs({ id: `sub-${mode}`, preferred_username: mode });
      forger.idToken = mode;
      expect(
        await throughProvider(center, 'idp', new CookieJar()),
        mode,
      ).toMatchObject({
        status: 400,
        result: 'error',
        message: 'IdP 未能完成登录，请稍后重试。',
      });
    }
    expect(await userCount(center, admin)).toBe(before);
  });

  it('signed with the key of the JWKS: signs in', async () => {
    forger.signInAs({ id: 'sub-genuine', preferred_username: 'genuine_idp' });
    forger.idToken = 'genuine';
    const done = await signInThrough(center, 'idp');
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ username: 'genuine_idp' });
    expect(forger.log).toContain('GET /jwks');
  });
});
