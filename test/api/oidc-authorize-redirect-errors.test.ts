import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import { createApp, pkcePair, type CreatedApp } from '../helpers/oauth.js';
import { authorizeGet, location } from '../helpers/oidc-pages.js';
import {
  authorizeBase,
  CB,
  expectErrorRedirect,
  startAuthorizeApp,
} from './oidc-authorize-setup.js';

let t: TestApp;
let dev: TestUser;
let conf: CreatedApp;
let pub: CreatedApp;
const clock = Date.now();
const PUB_CB = 'http://127.0.0.1:5173/cb';

beforeAll(async () => {
  ({ t, dev, conf } = await startAuthorizeApp(() => clock));
  pub = await createApp(t, dev, {
    client_type: 'public',
    redirect_uris: [PUB_CB],
  });
});
afterAll(async () => {
  await t.close();
});

const base = authorizeBase(() => conf);

describe('authorization endpoint: errors redirected with state and iss', () => {
  it('response_type', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ response_type: 'token' })),
      'unsupported_response_type',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ response_type: 'code id_token' })),
      'unsupported_response_type',
    );
    const { response_type: _, ...none } = base();
    expectErrorRedirect(await authorizeGet(t, none), 'invalid_request');
  });

  it('scope outside the client and the standard set, or missing', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ scope: 'openid admin' })),
      'invalid_scope',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ scope: 'openid bad!name' })),
      'invalid_scope',
    );
    const { scope: _, ...noScope } = base();
    expectErrorRedirect(await authorizeGet(t, noScope), 'invalid_request');
    // The client's own scope and the standard ones pass.
    expect(
      location(
        await authorizeGet(
          t,
          base({ scope: 'openid forum.read email offline_access' }),
        ),
      ).pathname,
    ).toBe('/login');
  });

  it('PKCE: required for public clients, S256 only, well-formed', async () => {
    const p = { client_id: pub.client_id, redirect_uri: PUB_CB };
    expectErrorRedirect(
      await authorizeGet(t, base(p)),
      'invalid_request',
      PUB_CB,
    );
    const { challenge } = pkcePair();
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({
          ...p,
          code_challenge: challenge,
          code_challenge_method: 'plain',
        }),
      ),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ ...p, code_challenge: challenge })),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({ ...p, code_challenge: 'short', code_challenge_method: 'S256' }),
      ),
      'invalid_request',
      PUB_CB,
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ code_challenge_method: 'S256' })),
      'invalid_request',
    );
    expect(
      location(
        await authorizeGet(
          t,
          base({
            ...p,
            code_challenge: challenge,
            code_challenge_method: 'S256',
          }),
        ),
      ).pathname,
    ).toBe('/login');
  });

  it('prompt, max_age, repeated parameters, request objects', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none login' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'sometimes' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ max_age: '-1' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ max_age: 'soon' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ request: 'eyJ.x.y' })),
      'request_not_supported',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ request_uri: 'https://x.example/r' })),
      'request_uri_not_supported',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ response_mode: 'fragment' })),
      'invalid_request',
    );
    expectErrorRedirect(
      await authorizeGet(t, base({ nonce: 'n'.repeat(513) })),
      'invalid_request',
    );
    // The longest values accepted still fit through the sign-in page's ticket.
    const long = location(
      await authorizeGet(
        t,
        base({
          state: 's'.repeat(2048),
          nonce: 'n'.repeat(512),
          login_hint: 'h'.repeat(256),
        }),
      ),
    );
    expect(long.pathname).toBe('/login');
    expect(long.href.length).toBeLessThan(12_000);
    const state = 's'.repeat(2049);
    expectErrorRedirect(
      await authorizeGet(t, base({ state })),
      'invalid_request',
      CB,
      state,
    );
    const dup = await t.app.inject({
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams(base()).toString()}&scope=email`,
    });
    expectErrorRedirect(dup, 'invalid_request');
  });

  it('prompt=none: login_required without a session, consent_required without consent', async () => {
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' })),
      'login_required',
    );
    const person = await t.register();
    expectErrorRedirect(
      await authorizeGet(t, base({ prompt: 'none' }), person.token),
      'consent_required',
    );
    // A callback that already has a query keeps it.
    const withQuery = await createApp(t, dev, {
      redirect_uris: ['https://rp.example.com/cb?tenant=7'],
    });
    const url = location(
      await authorizeGet(
        t,
        base({
          client_id: withQuery.client_id,
          redirect_uri: 'https://rp.example.com/cb?tenant=7',
          prompt: 'none',
        }),
      ),
    );
    expect([
      url.searchParams.get('tenant'),
      url.searchParams.get('error'),
    ]).toEqual(['7', 'login_required']);
  });

  it('a client without the authorization_code grant: unauthorized_client', async () => {
    const device = await createApp(t, dev, {
      redirect_uris: [CB],
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
    });
    expectErrorRedirect(
      await authorizeGet(t, base({ client_id: device.client_id })),
      'unauthorized_client',
    );
  });

  it('a redirect-class error with no state omits it', async () => {
    const { state: _, ...noState } = base({ response_type: 'token' });
    expectErrorRedirect(
      await authorizeGet(t, noState),
      'unsupported_response_type',
      CB,
      null,
    );
  });
});
