import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { freePort } from '../helpers/net.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { authorizeOverHttp } from '../helpers/oidc-client.js';

/**
 * A Node back end signing people in with openid-client v6 against the service over real HTTP,
 * given only the issuer URL and a client id/secret: discovery, code + PKCE + nonce (ID token
 * validated by the library), userinfo, refresh, introspection, revocation, client credentials.
 */
const CB = 'http://127.0.0.1:9/cb';
let t: TestApp;
let issuer: string;
let person: TestUser;
let rp: CreatedApp;

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    BASE_URL: issuer,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  person = await t.register();
  rp = await createApp(t, person, {
    redirect_uris: [CB],
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    scopes: ['stats.read'],
  });
});
afterAll(async () => {
  await t.close();
});

/** openid-client sends a bare secret with client_secret_post; a client registered with the default (Basic) says so. */
const configFor = (c: CreatedApp) =>
  client.discovery(
    new URL(issuer),
    c.client_id,
    undefined,
    c.token_endpoint_auth_method === 'client_secret_post'
      ? client.ClientSecretPost(c.client_secret!)
      : client.ClientSecretBasic(c.client_secret!),
    { execute: [client.allowInsecureRequests] },
  );

describe('openid-client v6 against the service', () => {
  it('signs in with code + PKCE + nonce, reads userinfo, refreshes, introspects and revokes', async () => {
    const config = await configFor(rp);
    expect(config.serverMetadata().issuer).toBe(issuer);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CB,
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await authorizeOverHttp(issuer, person.token, url);
    expect(callback.searchParams.get('iss')).toBe(issuer);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuer,
      sub: String(person.uid),
      aud: rp.client_id,
      preferred_username: person.username,
      email: person.email,
    });

    const info = await client.fetchUserInfo(
      config,
      tokens.access_token,
      claims.sub,
    );
    expect(info.preferred_username).toBe(person.username);

    const refreshed = await client.refreshTokenGrant(
      config,
      tokens.refresh_token!,
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()!.sub).toBe(claims.sub);

    expect(
      await client.tokenIntrospection(config, refreshed.access_token),
    ).toMatchObject({
      active: true,
      username: person.username,
      client_id: rp.client_id,
    });
    await client.tokenRevocation(config, refreshed.refresh_token!);
    expect(
      (await client.tokenIntrospection(config, refreshed.access_token)).active,
    ).toBe(false);
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token!),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('client credentials, and a wrong secret is invalid_client', async () => {
    const config = await configFor(rp);
    const tokens = await client.clientCredentialsGrant(config, {
      scope: 'stats.read',
    });
    expect(tokens.scope).toBe('stats.read');
    const wrong = await client.discovery(
      new URL(issuer),
      rp.client_id,
      undefined,
      client.ClientSecretBasic('wrong-secret'),
      { execute: [client.allowInsecureRequests] },
    );
    // 401 with a `WWW-Authenticate: Basic` challenge, which the library reports as such.
    await expect(client.clientCredentialsGrant(wrong)).rejects.toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ scheme: 'basic' })],
    });
    // A bare secret is client_secret_post to openid-client: a client registered with the default Basic is refused...
    const bare = await client.discovery(
      new URL(issuer),
      rp.client_id,
      rp.client_secret,
      undefined,
      { execute: [client.allowInsecureRequests] },
    );
    await expect(client.clientCredentialsGrant(bare)).rejects.toMatchObject({
      error: 'invalid_client',
    });
    // ...and one registered with client_secret_post works with nothing but id and secret.
    const post = await createApp(t, person, {
      redirect_uris: [CB],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const plain = await client.discovery(
      new URL(issuer),
      post.client_id,
      post.client_secret,
      undefined,
      { execute: [client.allowInsecureRequests] },
    );
    expect((await client.clientCredentialsGrant(plain)).token_type).toBe(
      'bearer',
    );
  });
});
