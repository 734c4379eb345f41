import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { authorizeAsBrowser, postForm } from '../helpers/oidc-client.js';
import { sha256Hex } from '../../src/platform/crypto/random.js';
import { CB, startTokenApp, tokenCodeFlow } from './oidc-token-setup.js';

let t: TestApp;
let person: TestUser;
let as: oauth.AuthorizationServer;
let basic: CreatedApp;
let post: CreatedApp;
let pub: CreatedApp;

beforeAll(async () => {
  ({ t, person, as, basic, post, pub } = await startTokenApp());
});
afterAll(async () => {
  await t.close();
});

const codeFlow = tokenCodeFlow(() => ({ t, person, as }));

describe('authorization code grant', () => {
  it('client_secret_post and none (public client with PKCE) each work with their own method', async () => {
    const p = await codeFlow(
      post,
      oauth.ClientSecretPost(post.client_secret!),
      'openid',
    );
    expect(
      oauth.getValidatedIdTokenClaims(p.tokens)!.preferred_username,
    ).toBeUndefined();
    const n = await codeFlow(pub, oauth.None(), 'openid profile');
    expect(oauth.getValidatedIdTokenClaims(n.tokens)!.name).toBe(
      person.username,
    );
  });

  it('a replayed code is invalid_grant and revokes the access token and refresh family it issued', async () => {
    const { tokens, code } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
    );
    const replay = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'authorization_code', code, redirect_uri: CB },
      { basic: [basic.client_id, basic.client_secret!] },
    );
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    expect(replay.headers['cache-control']).toBe('no-store');
    const info = await t.get('/oauth/userinfo', tokens.access_token);
    expect(info.statusCode).toBe(401);
    expect(info.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token"/,
    );
    const refresh = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      { basic: [basic.client_id, basic.client_secret!] },
    );
    expect(refresh.json().error).toBe('invalid_grant');
  });

  it('redirect_uri and PKCE rules: mismatch, missing or wrong verifier → invalid_grant; a seed code is never accepted', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const start = async () =>
      (
        await authorizeAsBrowser(t, person, {
          response_type: 'code',
          client_id: basic.client_id,
          redirect_uri: CB,
          scope: 'openid',
          state: 's',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        })
      ).searchParams.get('code')!;
    const cred = {
      basic: [basic.client_id, basic.client_secret!] as [string, string],
    };
    const tryCode = async (form: Record<string, string>) =>
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'authorization_code', ...form },
          cred,
        )
      ).json();
    expect(
      await tryCode({ code: await start(), code_verifier: verifier }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        code_verifier: verifier,
        redirect_uri: 'https://rp.example.com/other',
      }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({ code: await start(), redirect_uri: CB }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        redirect_uri: CB,
        code_verifier: oauth.generateRandomCodeVerifier(),
      }),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await tryCode({
        code: await start(),
        redirect_uri: CB,
        code_verifier: verifier,
      }),
    ).toMatchObject({ token_type: 'Bearer' });
    const seed = await t.post(
      '/api/v1/auth/authorize',
      { client_id: basic.client_id, redirect_uri: CB },
      person.token,
    );
    expect(
      await tryCode({ code: seed.json().data.code, redirect_uri: CB }),
    ).toMatchObject({ error: 'invalid_grant' });
    const oidcCode = await start();
    const viaSeed = await t.post('/api/v1/auth/exchange', {
      client_id: basic.client_id,
      client_secret: basic.client_secret,
      code: oidcCode,
      code_verifier: verifier,
    });
    expect(viaSeed.statusCode).toBe(400);
  });
});

describe('public clients', () => {
  it('a public client’s code without PKCE is never redeemed', async () => {
    const code = `nopkce-${Date.now()}`;
    const now = Date.now();
    await t.runtime.storage.codes.create({
      codeHash: sha256Hex(code),
      clientId: pub.client_id,
      userId: person.uid,
      redirectUri: pub.redirect_uris[0]!,
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      expiresAt: now + 60_000,
      createdAt: now,
      flow: 'oidc',
      authTime: now,
      redirectUriGiven: true,
    });
    const res = await postForm(t, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: pub.redirect_uris[0]!,
      client_id: pub.client_id,
    });
    expect([res.statusCode, res.json().error]).toEqual([400, 'invalid_grant']);
  });
});
