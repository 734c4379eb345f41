import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeAsBrowser,
  discover,
  viaInject,
} from '../helpers/oidc-client.js';

/** What the token endpoint files share: an app at ISSUER and the code flow a relying party runs. */
export const ISSUER = 'https://id.example.com';
export const CB = 'https://rp.example.com/cb';

export interface TokenApp {
  t: TestApp;
  dev: TestUser;
  person: TestUser;
  as: oauth.AuthorizationServer;
  basic: CreatedApp;
  post: CreatedApp;
  pub: CreatedApp;
}

/**
 * A fresh app with one client per authentication method: secret basic, secret post and none;
 * `env` adds settings (limits, say) to the issuer's.
 */
export async function startTokenApp(
  env: Record<string, string> = {},
): Promise<TokenApp> {
  const t = await createTestApp({ BASE_URL: `${ISSUER}/`, ...env });
  const dev = await t.register();
  const person = await t.register();
  const basic = await createApp(t, dev, { redirect_uris: [CB] });
  const post = await createApp(t, dev, {
    redirect_uris: [CB],
    token_endpoint_auth_method: 'client_secret_post',
  });
  const pub = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: ['http://127.0.0.1:8080/cb'],
  });
  const as = await discover(t, ISSUER);
  return { t, dev, person, as, basic, post, pub };
}

/** The code flow against the app `current()` returns, signed in as its `person`. */
export function tokenCodeFlow(
  current: () => Pick<TokenApp, 't' | 'person' | 'as'>,
) {
  /** The whole code flow through oauth4webapi: PKCE, state, nonce, ID token checks by the library. */
  return async function codeFlow(
    client: CreatedApp,
    auth: oauth.ClientAuth,
    scope = 'openid profile email',
  ) {
    const { t, person, as } = current();
    const redirectUri = client.redirect_uris[0]!;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const callback = await authorizeAsBrowser(t, person, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope,
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const c: oauth.Client = { client_id: client.client_id };
    const params = oauth.validateAuthResponse(as, c, callback, state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      c,
      auth,
      params,
      redirectUri,
      verifier,
      viaInject(t),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, res, {
      expectedNonce: nonce,
      requireIdToken: scope.includes('openid'),
    });
    return { tokens, client: c, code: params.get('code')! };
  };
}
