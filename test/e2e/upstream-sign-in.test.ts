import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import { newPage, screenshot, type Center } from './browser.js';
import type { SteamStandIn } from '../helpers/upstream/steam.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import {
  button,
  closeUpstreamCenter,
  startUpstreamCenter,
} from './upstream-setup.js';

/**
 * Sign-in with other accounts through the real pages in Chromium (docs/api.md §14): the
 * buttons on /login, the return from the provider, the second factor, the e-mail address that
 * belongs to an account, /account's 第三方账号, and a disabled provider's button.
 */
let center: Center;
let browser: Browser;
let steam: SteamStandIn;
let discord: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, browser, steam, discord } = await startUpstreamCenter());
});
afterAll(async () => {
  await closeUpstreamCenter({ center, browser, steam, discord });
});

describe('pages: sign in with other accounts', () => {
  it('/login shows one button per provider; Steam signs a new player in and /account lists the link', async () => {
    steam.signInAs({ id: '76561198000000001', personaname: 'Gordon' });
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login`);
    await button(page, 'Steam').waitFor();
    await button(page, 'Discord').waitFor();
    await screenshot(page, 'upstream-login');
    await button(page, 'Steam').click();
    await page.waitForURL(`${center.baseUrl}/account`);
    await page.locator('#upstream-links [data-provider="steam"]').waitFor();
    expect(await page.textContent('#upstream-links')).toContain('Gordon');
    expect(await page.textContent('#profile-username')).toBe('Gordon');
    expect(await page.textContent('#profile-email')).toBe('未设置');
    await context.close();
  });

  it('keeps where the person was going: /device asks for a sign-in and comes back after the provider', async () => {
    steam.signInAs({ id: '76561198000000002', personaname: 'Alyx' });
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/device`);
    await page.waitForURL(/\/login\?next=/);
    await button(page, 'Steam').click();
    await page.waitForURL(`${center.baseUrl}/device`);
    await context.close();
  });

  it('a failed return shows a clear page with a way back to /login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login/steam/callback?state=forged`);
    await page
      .getByText(
        '登录请求已失效，或不是在这个浏览器中发起的。请返回登录页重新开始。',
      )
      .waitFor();
    await screenshot(page, 'upstream-error');
    await page.click('#upstream-back');
    await page.waitForURL(`${center.baseUrl}/login`);
    await context.close();
  });

  it('a failed return in an English browser says why in English', async () => {
    const { context, page } = await newPage(browser, undefined, 'en-US');
    await page.goto(`${center.baseUrl}/login/steam/callback?state=forged`);
    await page
      .getByText(
        'This sign-in request has expired or was not started in this browser. Please go back to the sign-in page and start again.',
      )
      .waitFor();
    const shown = await page.textContent('main');
    expect(shown).not.toMatch(/[\u4e00-\u9fff]/);
    expect(await page.textContent('#upstream-back')).toBe('Back to sign-in');
    await context.close();
  });

  it('an address already in use is linked only after signing in to its account and proving it again', async () => {
    const owner = await center.register({
      username: uniqueName('owner'),
      email: `${uniqueName('mail')}@example.com`,
    });
    discord.signInAs({
      id: '90000000000000001',
      username: 'owner_on_discord',
      email: owner.email,
      verified: true,
    });
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login`);
    await button(page, 'Discord').click();
    await page.locator('#upstream-email-exists').waitFor();
    expect(await page.textContent('#upstream-email-exists')).toContain(
      owner.email,
    );
    expect(await page.inputValue('#f-username')).toBe(owner.email);
    await page.fill('#f-password', owner.password);
    await page.click('form:not([hidden]) button[type=submit]');
    // Signing in links nothing yet: the page asks for the account's proof (docs/api.md §10.1).
    await page.locator('#upstream-confirm-link').waitFor();
    await page.locator('#f-link_existing_password').waitFor();
    expect(
      (await center.get(`${A}/account/upstream`, owner.token)).json().data
        .links,
    ).toEqual([]);
    await screenshot(page, 'upstream-confirm-link');
    await page.fill('#f-link_existing_password', 'not the password');
    await page.getByRole('button', { name: '确认绑定 Discord' }).click();
    await page.getByText('当前密码或两步验证码不正确').waitFor();
    await page.fill('#f-link_existing_password', owner.password);
    await page.getByRole('button', { name: '确认绑定 Discord' }).click();
    await page.waitForURL(`${center.baseUrl}/account`);
    await page.locator('#upstream-links [data-provider="discord"]').waitFor();
    await context.close();
  });
});
