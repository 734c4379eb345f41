import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../helpers/app.js';
import {
  launchBrowser,
  newPage,
  screenshot,
  startCenter,
  type Center,
} from './browser.js';
import {
  discover,
  landed,
  newAttempt,
  redeem,
  registerClient,
  signInOnForm,
  startRelyingPartyPages,
  stopRelyingPartyPages,
} from './oidc-rp.js';

let center: Center;
let browser: Browser;
let developer: TestUser;

beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter(),
    launchBrowser(),
    startRelyingPartyPages(),
  ]);
  developer = await center.register();
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
  await stopRelyingPartyPages();
});

/** Polled from here: the page's CSP forbids eval. */
const oauthRows = (page: Page, n: number) =>
  expect
    .poll(
      () => page.locator('#sessions li.session[data-kind="oauth"]').count(),
      { timeout: 10_000 },
    )
    .toBe(n);

describe('account page: OpenID Connect sign-ins', () => {
  it('an app signed in through OIDC is listed; ending it makes its refresh token invalid_grant', async () => {
    const app = await registerClient(center, developer, 'client_secret_basic', {
      display_name: '星际论坛',
    });
    const config = await discover(center, app, 'client_secret_basic');
    const person = await center.register();
    const { context, page } = await newPage(browser);

    const attempt = await newAttempt(config);
    await page.goto(attempt.url.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '同意' }).click();
    const tokens = await redeem(config, await landed(page), attempt);
    expect(tokens.refresh_token).toBeTruthy();

    // The sign-in on the authorization form signed this browser in at the center too.
    await page.goto(`${center.baseUrl}/account`);
    await oauthRows(page, 1);
    const row = page.locator('#sessions li.session[data-kind="oauth"]');
    await expect(row.textContent()).resolves.toContain('星际论坛');
    await expect(row.textContent()).resolves.toContain('第三方授权');
    await screenshot(page, 'account-sessions-oauth');

    await row.locator('button[data-session]').click();
    await page.waitForSelector('#session-list .notice.success');
    await oauthRows(page, 0);
    const refused = await client
      .refreshTokenGrant(config, tokens.refresh_token!)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(client.ResponseBodyError);
    expect((refused as client.ResponseBodyError).error).toBe('invalid_grant');
    await screenshot(page, 'account-sessions-oauth-ended');
    await context.close();
  });
});
