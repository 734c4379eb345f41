import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { OidcUpstream } from '../helpers/upstream/oidc-upstream.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import { addProvider, signInThrough } from '../helpers/upstream/flow.js';
import { createApp, pkcePair } from '../helpers/oauth.js';
import { authorizeAsBrowser, postForm } from '../helpers/oidc-client.js';
import { closeCorpCenter, startCorpCenter } from './upstream-oidc-setup.js';

/**
 * Sign-in with a generic OpenID Connect provider (docs/api.md §14) against a real one,
 * panva's oidc-provider: discovery, code + PKCE + nonce, the ID token checked by openid-client,
 * and the account rules of §14.3 on both databases.
 */
let center: ListeningCenter;
let upstream: OidcUpstream;
let admin: TestUser;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, upstream, admin } = await startCorpCenter());
});
afterAll(async () => {
  await closeCorpCenter({ center, upstream });
});

describe('the google and microsoft presets', () => {
  it('need no issuer, and sign in as oidc does when the issuer is overridden', async () => {
    for (const type of ['google', 'microsoft']) {
      const body = {
        id: `${type}-preset`,
        type,
        name: type,
        client_id: 'c',
        client_secret: 's',
        enabled: false,
      };
      expect(await addProvider(center, admin, body)).toMatchObject({
        type,
        issuer: null,
        scopes: 'openid profile email',
      });
      await addProvider(center, admin, {
        id: type,
        type,
        name: type,
        client_id: upstream.clientId,
        client_secret: upstream.clientSecret,
        issuer: upstream.issuer,
      });
      upstream.signInAs(`sub-${type}`, {
        preferred_username: `${type}.person`,
        name: `${type} person`,
        email: `${type}@mail.example`,
        email_verified: true,
      });
      const first = await signInThrough(center, type);
      expect(first.body.user).toMatchObject({
        username: `${type}_person`,
        email: `${type}@mail.example`,
      });
      expect((await signInThrough(center, type)).body.user.uid).toBe(
        first.body.user.uid,
      );
      await center.post(
        `${A}/admin/providers/status`,
        { id: type, enabled: false },
        admin.token,
      );
    }
  });
});

describe('tokens after an upstream sign-in', () => {
  /** An OpenID Connect client of the center signs the person in with the center's session: the ID token's claims. */
  async function idTokenClaims(
    token: string,
  ): Promise<Record<string, unknown>> {
    const dev = await center.register();
    const rp = await createApp(center, dev, {
      redirect_uris: ['https://rp.example/cb'],
    });
    const { verifier, challenge } = pkcePair();
    const callback = await authorizeAsBrowser(center, { token } as TestUser, {
      response_type: 'code',
      client_id: rp.client_id,
      redirect_uri: 'https://rp.example/cb',
      scope: 'openid profile',
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await postForm(
      center,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: 'https://rp.example/cb',
        code_verifier: verifier,
      },
      { basic: [rp.client_id, rp.client_secret!] },
    );
    expect(res.statusCode).toBe(200);
    const idToken = res.json().id_token as string;
    const refreshed = await postForm(
      center,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: res.json().refresh_token },
      { basic: [rp.client_id, rp.client_secret!] },
    );
    const again = JSON.parse(
      Buffer.from(
        (refreshed.json().id_token as string).split('.')[1]!,
        'base64url',
      ).toString(),
    );
    const claims = JSON.parse(
      Buffer.from(idToken.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(again.amr).toEqual(claims.amr);
    return claims;
  }

  it('an OpenID Connect client gets amr ["fed"]; a password sign-in stays without amr', async () => {
    upstream.signInAs('sub-fed', { preferred_username: 'federated' });
    const viaUpstream = await signInThrough(center, 'corp');
    expect(await idTokenClaims(viaUpstream.body.access_token)).toMatchObject({
      amr: ['fed'],
      sub: String(viaUpstream.body.user.uid),
      nonce: 'n',
    });
    const person = await center.register();
    expect((await idTokenClaims(person.token)).amr).toBeUndefined();
  });

  it('the token is first-party like a password sign-in: game token, refresh, device approval, the session listed', async () => {
    upstream.signInAs('sub-game', { preferred_username: 'gamer' });
    const signedIn = await signInThrough(center, 'corp');
    const game = await center.post(
      `${A}/game_token`,
      undefined,
      signedIn.body.access_token,
    );
    expect(game.json()).toMatchObject({ ok: true, expires_in: 2592000 });
    expect(
      (await center.post(`${A}/refresh`, undefined, signedIn.body.access_token))
        .statusCode,
    ).toBe(200);
    const device = (await center.post(`${A}/device/start`, {})).json().data;
    expect(
      (
        await center.post(
          `${A}/device/approve`,
          { user_code: device.user_code },
          signedIn.body.access_token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await center.post(`${A}/device/poll`, {
          device_code: device.device_code,
        })
      ).json().user.uid,
    ).toBe(signedIn.body.user.uid);
    const sessions = (
      await center.get(`${A}/account/sessions`, signedIn.body.access_token)
    ).json().data.sessions;
    expect(sessions.some((s: { current: boolean }) => s.current)).toBe(true);
    const audit = (
      await center.get(
        `${A}/admin/audit?action=login.success&target=${signedIn.body.user.username}`,
        admin.token,
      )
    ).json().data.entries;
    expect(audit[0].detail).toEqual({ method: 'upstream:corp' });
  });
});
