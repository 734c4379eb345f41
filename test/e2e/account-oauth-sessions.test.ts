import { describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.js';
import {
  centerWithRelyingParty,
  newClientAndPerson,
  landed,
  newAttempt,
  redeem,
  signInOnForm,
} from './oidc-rp.js';

const env = centerWithRelyingParty();

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
    const { config, person, context, page } = await newClientAndPerson(
      env,
      'client_secret_basic',
      { display_name: '星际论坛' },
    );

    const attempt = await newAttempt(config);
    await page.goto(attempt.url.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '同意' }).click();
    const tokens = await redeem(config, await landed(page), attempt);
    expect(tokens.refresh_token).toBeTruthy();

    // The sign-in on the authorization form signed this browser in at the center too.
    await page.goto(`${env.center.baseUrl}/account`);
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
