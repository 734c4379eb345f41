import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { pkcePair, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';
import { timedSecretKey } from '../../src/platform/crypto/random.js';
import {
  authorizeBase,
  CB,
  expectErrorRedirect,
  ISSUER,
  startAuthorizeApp,
} from './oidc-authorize-setup.js';

let t: TestApp;
let conf: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  ({ t, conf } = await startAuthorizeApp(() => clock));
});
afterAll(async () => {
  await t.close();
});

const base = authorizeBase(() => conf);

describe('authorization endpoint: sign-in, consent and the code', () => {
  it('no session: to the sign-in page with the ticket and the login hint', async () => {
    const url = location(
      await authorizeGet(t, base({ login_hint: 'alice@example.com' })),
    );
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('next')).toMatch(
      /^\/oauth\/authorize\/resume\?ticket=/,
    );
    expect(url.searchParams.get('login_hint')).toBe('alice@example.com');
    expect(url.searchParams.has('switch')).toBe(false);
    // Back from the sign-in page with a session: on to the consent page.
    const person = await t.register();
    const resume = await t.app.inject({
      method: 'GET',
      url: url.searchParams.get('next')!,
      headers: { cookie: `ac_session=${person.token}` },
    });
    expect(location(resume).pathname).toBe('/authorize');
  });

  it('consent issues a single-use oidc code bound to nonce, PKCE and sign-in time; the next request skips the page', async () => {
    const person = await t.register();
    const { challenge } = pkcePair();
    const params = base({
      nonce: 'n-0S6_WzA2Mj',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'a b&c',
    });
    const first = location(await authorizeGet(t, params, person.token));
    const ticket = ticketOf(first);
    const view = await pagesPost(
      t,
      '/oauth/interaction',
      { ticket },
      person.token,
    );
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toMatchObject({
      client_id: conf.client_id,
      scopes: ['openid', 'profile'],
      redirect_uri: CB,
      user: { username: person.username },
    });

    const done = await pagesPost(
      t,
      '/oauth/consent',
      { ticket, decision: 'allow' },
      person.token,
    );
    const cb = new URL(done.json().data.redirect_to);
    expect(cb.origin + cb.pathname).toBe(CB);
    expect([cb.searchParams.get('state'), cb.searchParams.get('iss')]).toEqual([
      'a b&c',
      ISSUER,
    ]);
    const code = cb.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{50}$/);
    const row = await t.runtime.storage.codes.findByHash(timedSecretKey(code));
    expect(row).toMatchObject({
      flow: 'oidc',
      nonce: 'n-0S6_WzA2Mj',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      redirectUri: CB,
      redirectUriGiven: true,
      scope: 'openid profile',
      userId: person.uid,
      clientId: conf.client_id,
      usedAt: null,
    });
    expect(row!.expiresAt - row!.createdAt).toBe(120_000);
    expect(row!.authTime).toBeGreaterThan(0);

    // Remembered: the same scopes (or fewer) get a code at once, prompt=none too.
    for (const extra of [{}, { scope: 'openid' }, { prompt: 'none' }] as Array<
      Record<string, string>
    >) {
      const again = location(await authorizeGet(t, base(extra), person.token));
      expect(again.origin + again.pathname).toBe(CB);
      expect(again.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{50}$/);
      expect(again.searchParams.get('iss')).toBe(ISSUER);
    }
    // New scopes, prompt=consent or select_account ask again.
    for (const extra of [
      { scope: 'openid email' },
      { prompt: 'consent' },
      { prompt: 'select_account' },
    ] as Array<Record<string, string>>) {
      expect(
        location(await authorizeGet(t, base(extra), person.token)).pathname,
      ).toBe('/authorize');
    }
    expectErrorRedirect(
      await authorizeGet(
        t,
        base({ scope: 'openid email', prompt: 'none' }),
        person.token,
      ),
      'consent_required',
    );
  });

  it('refusing sends access_denied with state and iss', async () => {
    const person = await t.register();
    const ticket = ticketOf(
      location(await authorizeGet(t, base(), person.token)),
    );
    const res = await pagesPost(
      t,
      '/oauth/consent',
      { ticket, decision: 'deny' },
      person.token,
    );
    const url = new URL(res.json().data.redirect_to);
    expect([
      url.searchParams.get('error'),
      url.searchParams.get('state'),
      url.searchParams.get('iss'),
    ]).toEqual(['access_denied', 'st-1', ISSUER]);
    expect(url.searchParams.has('code')).toBe(false);
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.consent.deny', actor: person.username },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({
      target: conf.client_id,
      detail: { scope: 'openid profile' },
    });
  });
});
