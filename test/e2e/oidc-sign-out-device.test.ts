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
} from './oidc-rp.js';

const env = centerWithRelyingParty();

/** A fresh browser profile: no session at the center. */
const freshBrowser = () => newPage(env.browser);

/** A new client_secret_basic client and person, signed in through the pages with consent given. */
async function consentedSignIn() {
  const { config, person, context, page } = await newClientAndPerson(
    env,
    'client_secret_basic',
  );
  const attempt = await newAttempt(config);
  await page.goto(attempt.url.href);
  await signInOnForm(page, person);
  await page.getByRole('button', { name: '同意' }).click();
  const tokens = await redeem(config, await landed(page), attempt);
  return { config, context, page, tokens };
}

describe('e2e OIDC: openid-client signs people in through the real pages', () => {
  it('end-session goes back to the registered address with state and signs the browser out', async () => {
    const { config, context, page, tokens } = await consentedSignIn();

    const state = client.randomState();
    await page.goto(
      client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: relyingParty.loggedOut,
        state,
      }).href,
    );
    const back = await landed(page, '/logged-out');
    expect(back.searchParams.get('state')).toBe(state);

    // The center's pages are signed out as well, and the next silent request needs a sign-in.
    await page.goto(`${env.center.baseUrl}/account`);
    await page.waitForURL((u) => u.pathname === '/login');
    const silent = await newAttempt(config, { prompt: 'none' });
    await page.goto(silent.url.href);
    expect((await landed(page)).searchParams.get('error')).toBe(
      'login_required',
    );

    // An address that is not registered for the client is not followed.
    await page.goto(
      client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: `${relyingParty.callback}x`,
        state,
      }).href,
    );
    await expect(page.textContent('body')).resolves.toContain('已退出登录');
    expect(new URL(page.url()).origin).toBe(env.center.baseUrl);
    await screenshot(page, 'oidc-signed-out');
    await context.close();
  });

  it('a cross-site link to end-session without a hint ends nothing until the person confirms', async () => {
    const { config, context, page } = await consentedSignIn();
    const state = client.randomState();
    const logout = client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: relyingParty.loggedOut,
      state,
    }).href;
    const sessionToken = async () =>
      (await context.cookies(env.center.baseUrl)).find(
        (c) => c.name === 'ac_session',
      )?.value ?? '';
    const signedIn = async () =>
      (await env.center.get('/api/v1/auth/me', await sessionToken()))
        .statusCode === 200;
    const ask = page.getByRole('heading', { name: '退出登录？' });

    // A plain link on another site (localhost is another site than 127.0.0.1): the SameSite=Lax
    // session cookie rides on this top-level GET, yet only the confirmation page answers.
    await page.goto(
      `${relyingParty.origin.replace('127.0.0.1', 'localhost')}/lure`,
    );
    await page.evaluate(
      `(() => { const a = document.createElement('a'); a.id = 'lure'; a.href = ${JSON.stringify(logout)}; a.textContent = 'win'; document.body.append(a); })()`,
    );
    await page.click('#lure');
    await ask.waitFor();
    expect(new URL(page.url()).origin).toBe(env.center.baseUrl);
    await screenshot(page, 'oidc-logout-confirm');
    expect(await signedIn()).toBe(true);

    // 取消: back to the client with its state, still signed in.
    await page.getByRole('button', { name: '取消' }).click();
    expect((await landed(page, '/logged-out')).searchParams.get('state')).toBe(
      state,
    );
    expect(await signedIn()).toBe(true);

    // 确认退出: signed out, back to the client with its state.
    await page.goto(logout);
    await ask.waitFor();
    const token = await sessionToken();
    await page.getByRole('button', { name: '确认退出' }).click();
    expect((await landed(page, '/logged-out')).searchParams.get('state')).toBe(
      state,
    );
    expect((await env.center.get('/api/v1/auth/me', token)).statusCode).toBe(
      401,
    );
    expect(await sessionToken()).toBe('');
    await context.close();
  });

  it('revoking the app on /account ends its refresh token', async () => {
    const { config, context, page, tokens } = await consentedSignIn();

    await page.goto(`${env.center.baseUrl}/account`);
    const row = page.locator('.authorized-app', {
      hasText: 'RP client_secret_basic',
    });
    await expect(row.textContent()).resolves.toContain('openid');
    await screenshot(page, 'oidc-authorized-apps');
    await row.getByRole('button', { name: '撤销授权' }).click();
    await page.waitForSelector('.notice.success');
    await expect(
      client.refreshTokenGrant(config, tokens.refresh_token!),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(
      client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub),
    ).rejects.toBeTruthy();
    await context.close();
  });

  it('device grant approved in the browser on /device', async () => {
    const rp = await registerClient(
      env.center,
      env.developer,
      'client_secret_basic',
      {
        grant_types: [
          'authorization_code',
          'refresh_token',
          'urn:ietf:params:oauth:grant-type:device_code',
        ],
      },
    );
    const config = await discover(env.center, rp, 'client_secret_basic');
    const person = await env.center.register();
    const started = await client.initiateDeviceAuthorization(config, {
      scope: 'openid profile',
    });
    expect(started.user_code).toMatch(/^\d{6}$/);
    const { context, page } = await freshBrowser();
    await page.goto(started.verification_uri_complete!);
    await page.waitForURL((u) => u.pathname === '/login');
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '确认登录' }).click();
    await page.waitForSelector('#device-result:not([hidden])');
    const tokens = await client.pollDeviceAuthorizationGrant(config, started);
    expect(tokens.claims()!.sub).toBe(String(person.uid));
    await context.close();
  });
});
