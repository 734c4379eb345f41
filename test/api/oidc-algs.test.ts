import { describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { loadConfig } from '../../src/config/index.js';
import { createTestApp } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import {
  authorizeAsBrowser,
  discover,
  injectFetch,
  postForm,
  viaInject,
} from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';

describe('OIDC_SIGNING_ALG', () => {
  for (const [alg, kty] of [
    ['ES256', 'EC'],
    ['EdDSA', 'OKP'],
  ] as const) {
    it(`${alg}: keys, ID token validated by oauth4webapi, access token verified from the JWKS`, async () => {
      const t = await createTestApp({
        BASE_URL: ISSUER,
        OIDC_SIGNING_ALG: alg,
      });
      try {
        const dev = await t.register();
        const rp = await createApp(t, dev, { redirect_uris: [CB] });
        const as = await discover(t, ISSUER);
        expect(as.id_token_signing_alg_values_supported).toEqual([
          'RS256',
          alg,
        ]);
        const { keys } = (await t.get('/oauth/jwks')).json();
        expect(keys[0]).toMatchObject({ kty, alg, use: 'sig' });
        expect(keys[0].d).toBeUndefined();
        const callback = await authorizeAsBrowser(t, dev, {
          response_type: 'code',
          client_id: rp.client_id,
          redirect_uri: CB,
          scope: 'openid profile',
          state: 's',
          nonce: 'n',
        });
        const c: oauth.Client = {
          client_id: rp.client_id,
          id_token_signed_response_alg: alg,
        };
        const params = oauth.validateAuthResponse(as, c, callback, 's');
        const res = await oauth.authorizationCodeGrantRequest(
          as,
          c,
          oauth.ClientSecretBasic(rp.client_secret!),
          params,
          CB,
          oauth.nopkce,
          viaInject(t),
        );
        const tokens = await oauth.processAuthorizationCodeResponse(
          as,
          c,
          res,
          { expectedNonce: 'n' },
        );
        expect(oauth.getValidatedIdTokenClaims(tokens)!.sub).toBe(
          String(dev.uid),
        );
        const jwks = createRemoteJWKSet(new URL(as.jwks_uri!), {
          [customFetch]: injectFetch(t.app) as typeof fetch,
        });
        const { protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
          issuer: ISSUER,
          typ: 'at+jwt',
        });
        expect(protectedHeader.alg).toBe(alg);
        const refreshed = await postForm(
          t,
          '/oauth/token',
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
          { basic: [rp.client_id, rp.client_secret!] },
        );
        expect(refreshed.statusCode).toBe(200);
      } finally {
        await t.close();
      }
    });
  }

  it('an unknown algorithm is a configuration error', async () => {
    expect(() =>
      loadConfig({ JWT_SECRET: 'x'.repeat(40), OIDC_SIGNING_ALG: 'HS256' }),
    ).toThrow(/OIDC_SIGNING_ALG/);
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(40) }).config).toMatchObject({
      oidcSigningAlg: 'RS256',
      accessTokenTtl: 3600,
      idTokenTtl: 3600,
      refreshTokenTtl: 2592000,
    });
  });
});
