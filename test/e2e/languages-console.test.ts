import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';
import { startRelyingPartyPages, stopRelyingPartyPages } from './oidc-rp.js';

/** Each page in English for a browser that asks for it, and the header switch that remembers a choice. */
const env = centerAndBrowser();
const EN = 'en-US';
beforeAll(startRelyingPartyPages);
afterAll(stopRelyingPartyPages);

/** The Chinese words of the page's text, besides the site name and the switch back to 中文. */
async function chineseOn(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>(
    `[...document.querySelectorAll('main, header nav')].map((e) => e.textContent).join(' ')`,
  );
  return [...text.matchAll(/[\u4e00-\u9fff]+/g)].map((m) => m[0]);
}

describe('e2e: the pages in English', () => {
  it('the developer console: the form, its errors and an app card', async () => {
    const person = await env.center.register();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, person.username, person.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Developer console');
    await page.click('#create-app summary');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://wiki.example/cb',
    );
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(
      '#create-app .field-error:has-text("App name is required")',
    );
    await page.fill('#create-app [name=display_name]', 'Wiki');
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector('#new-secret');
    expect(await page.textContent('#new-secret')).toContain(
      'shown this once only',
    );
    expect(await page.textContent('main')).toContain(
      'Authorization code (authorization_code)',
    );
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-console');
    await context.close();
  });

  it('the administration pages: users, roles and the audit log in words', async () => {
    const admin = await env.center.admin();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.waitForSelector('[data-role=admin]');
    expect(await page.textContent('main h1')).toBe('User administration');
    expect(await page.textContent('[data-role=admin]')).toBe('Administrator');
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-admin');
    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    expect(await page.textContent('main')).toContain('Signed in');
    expect(await chineseOn(page)).toEqual([]);
    await page.goto(`${env.center.baseUrl}/admin?view=dashboard`);
    await page.waitForSelector('#fig-users');
    expect(await page.textContent('#fig-users')).toContain('Users');
    expect(await chineseOn(page)).toEqual([]);
    await context.close();
  });

  it('the administration pages: invite codes and webhooks', async () => {
    const admin = await env.center.admin();
    await env.center.runtime.services.abuse.invites.create({ uses: 2 }, 'test');
    const hook = await env.center.post(
      '/api/v1/auth/admin/webhooks',
      {
        url: 'https://forum.example.com/hooks/center',
        events: ['user.banned', 'user.unbanned'],
      },
      admin.token,
    );
    expect(hook.statusCode, hook.body).toBe(200);
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/admin?view=invites`);
    await page.waitForSelector('#invites li.invite');
    expect(await page.textContent('#invites li.invite')).toContain('2 left');
    expect(await page.textContent('#invites li.invite')).toContain(
      'Used 0 of 2 · never expires · made by test at',
    );
    expect(await page.textContent('#invites-view')).toContain(
      'Make an invite code',
    );
    expect(await chineseOn(page)).toEqual([]);
    await page.goto(`${env.center.baseUrl}/admin?view=webhooks`);
    await page.waitForSelector('#webhooks li.webhook');
    expect(await page.textContent('#webhooks li.webhook')).toContain(
      'No description · Events: user.banned, user.unbanned',
    );
    expect(await page.textContent('#webhooks li.webhook')).toContain(
      'No deliveries yet',
    );
    expect(await page.textContent('#webhooks-view h2')).toBe('Add a webhook');
    expect(await chineseOn(page)).toEqual([]);
    await context.close();
  });

  it('the not-found page', async () => {
    const { context, page } = await newPage(env.browser, undefined, EN);
    await page.goto(`${env.center.baseUrl}/no-such-page`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Page not found');
    expect(await page.textContent('main')).toContain('Back to the home page');
    await context.close();
  });

  it('the switch in the header changes the language and keeps it', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('登录');
    expect(await page.textContent('#lang-switch')).toBe('English');
    await page.click('#lang-switch');
    await page.waitForFunction(
      "document.documentElement.lang === 'en' && document.body.classList.contains('ready')",
    );
    expect(await page.textContent('main h1')).toBe('Sign in');
    await page.goto(`${env.center.baseUrl}/register`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Create an account');
    expect(await page.textContent('#lang-switch')).toBe('中文');
    await page.click('#lang-switch');
    await page.waitForFunction(
      "document.documentElement.lang === 'zh-CN' && document.body.classList.contains('ready')",
    );
    expect(await page.textContent('main h1')).toBe('注册账号');
    await context.close();
  });

  it('the sign-in page at phone width has room for the switch', async () => {
    const { context, page } = await newPage(env.browser, PHONE, EN);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.isVisible('#lang-switch')).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'en-login-phone');
    await context.close();
  });
});
