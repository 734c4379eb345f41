import { describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { newPage, screenshot } from './browser.js';
import {
  centerWithRelyingParty,
  newClientAndPerson,
  discover,
  landed,
  newAttempt,
  redeem,
  registerClient,
  rp as relyingParty,
  signInOnForm,
  type AuthMethod,
} from './oidc-rp.js';

const env = centerWithRelyingParty();

/** A fresh browser profile: no session at the center. */
const freshBrowser = () => newPage(env.browser);

describe('e2e OIDC: openid-client signs people in through the real pages', () => {
  for (const method of [
    'client_secret_basic',
    'client_secret_post',
    'none',
  ] as AuthMethod[]) {
    it(`code flow with ${method}: sign in, consent, tokens, userinfo, refresh`, async () => {
      const {
        registered: rp,
        config,
        person,
        context,
        page,
      } = await newClientAndPerson(env, method);

      const attempt = await newAttempt(config);
      await page.goto(attempt.url.href);
      await page.waitForURL((u) => u.pathname === '/login');
      await screenshot(page, `oidc-login-${method}`);
      await signInOnForm(page, person);
      await page.waitForURL((u) => u.pathname === '/authorize');
      await page.getByRole('button', { name: '同意' }).waitFor();
      await expect(page.textContent('#app-name')).resolves.toBe(`RP ${method}`);
      await expect(page.textContent('.scopes')).resolves.toContain('openid');
      await screenshot(page, `oidc-consent-${method}`);
      await page.getByRole('button', { name: '同意' }).click();

      const callback = await landed(page);
      expect(callback.searchParams.get('iss')).toBe(env.center.baseUrl);
      const tokens = await redeem(config, callback, attempt);
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: env.center.baseUrl,
        sub: String(person.uid),
        aud: rp.client_id,
        nonce: attempt.nonce,
        preferred_username: person.username,
        email: person.email,
      });
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      const info = await client.fetchUserInfo(
        config,
        tokens.access_token,
        claims.sub,
      );
      expect(info).toMatchObject({
        sub: String(person.uid),
        preferred_username: person.username,
      });
      expect(tokens.refresh_token).toBeTruthy();
      const refreshed = await client.refreshTokenGrant(
        config,
        tokens.refresh_token!,
      );
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      await context.close();
    });
  }

  it('remembered consent: the second sign-in shows no consent page; prompt=login forces the form', async () => {
    const { config, person, context, page } = await newClientAndPerson(
      env,
      'client_secret_basic',
    );
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
    });

    const first = await newAttempt(config);
    await page.goto(first.url.href);
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '同意' }).click();
    await redeem(config, await landed(page), first);

    visited.length = 0;
    const second = await newAttempt(config);
    await page.goto(second.url.href);
    const tokens = await redeem(config, await landed(page), second);
    expect(tokens.claims()!.sub).toBe(String(person.uid));
    expect(visited).not.toContain('/authorize');
    expect(visited).not.toContain('/login');

    const forced = await newAttempt(config, { prompt: 'login' });
    await page.goto(forced.url.href);
    await page.getByLabel('密码').waitFor();
    await screenshot(page, 'oidc-prompt-login');
    await signInOnForm(page, person);
    const again = await redeem(config, await landed(page), forced);
    expect(again.claims()!.auth_time).toBeGreaterThanOrEqual(
      tokens.claims()!.auth_time!,
    );
    await context.close();
  });

  it('prompt=none without a session answers login_required with state and iss', async () => {
    const rp = await registerClient(
      env.center,
      env.developer,
      'client_secret_basic',
    );
    const config = await discover(env.center, rp, 'client_secret_basic');
    const { context, page } = await freshBrowser();
    const attempt = await newAttempt(config, { prompt: 'none' });
    await page.goto(attempt.url.href);
    const callback = await landed(page);
    expect([
      callback.searchParams.get('error'),
      callback.searchParams.get('state'),
      callback.searchParams.get('iss'),
    ]).toEqual(['login_required', attempt.state, env.center.baseUrl]);
    await expect(redeem(config, callback, attempt)).rejects.toMatchObject({
      error: 'login_required',
    });
    await context.close();
  });

  it('an unregistered redirect is never followed: the browser stays on the error page', async () => {
    const rp = await registerClient(
      env.center,
      env.developer,
      'client_secret_basic',
    );
    const config = await discover(env.center, rp, 'client_secret_basic');
    const { context, page } = await freshBrowser();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const attempt = await newAttempt(config, {
      redirect_uri: `${relyingParty.origin}/elsewhere`,
    });
    const res = await page.goto(attempt.url.href);
    expect(res?.status()).toBe(400);
    await expect(page.textContent('body')).resolves.toContain(
      '回调地址不在白名单内',
    );
    expect(page.url()).toBe(attempt.url.href);
    expect(requests.filter((u) => u.startsWith(relyingParty.origin))).toEqual(
      [],
    );
    await screenshot(page, 'oidc-unregistered-redirect');
    await context.close();
  });

  it('a public client without PKCE gets an error redirect; refusing consent gets access_denied', async () => {
    const { config, person, context, page } = await newClientAndPerson(
      env,
      'none',
    );
    const state = client.randomState();
    await page.goto(
      client.buildAuthorizationUrl(config, {
        redirect_uri: relyingParty.callback,
        scope: 'openid',
        state,
      }).href,
    );
    const noPkce = await landed(page);
    expect([
      noPkce.searchParams.get('error'),
      noPkce.searchParams.get('state'),
    ]).toEqual(['invalid_request', state]);

    const attempt = await newAttempt(config);
    await page.goto(attempt.url.href);
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '拒绝' }).click();
    const denied = await landed(page);
    expect([
      denied.searchParams.get('error'),
      denied.searchParams.get('state'),
      denied.searchParams.get('iss'),
    ]).toEqual(['access_denied', attempt.state, env.center.baseUrl]);
    await expect(redeem(config, denied, attempt)).rejects.toMatchObject({
      error: 'access_denied',
    });
    await context.close();
  });
});
