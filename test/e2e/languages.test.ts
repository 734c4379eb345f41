import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centerAndBrowser, horizontalOverflow, newPage, PHONE, screenshot } from './browser.js';

/** Each page in English for a browser that asks for it, and the header switch that remembers a choice. */
const env = centerAndBrowser();
const EN = 'en-US';

/** The Chinese words of the page's text, besides the site name and the switch back to 中文. */
async function chineseOn(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>(`[...document.querySelectorAll('main, header nav')].map((e) => e.textContent).join(' ')`);
  return [...text.replace(/账号中心/g, '').matchAll(/[\u4e00-\u9fff]+/g)].map((m) => m[0]);
}

describe('e2e: the pages in English', () => {
  it('the sign-in page, its tabs and its errors', async () => {
    const { context, page } = await newPage(env.browser, undefined, EN);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expect(page.title()).resolves.toBe('Sign in - 账号中心');
    expect(await page.textContent('main h1')).toBe('Sign in');
    expect(await page.textContent('label[for=f-username]')).toBe('Username or e-mail');
    await page.fill('#f-username', 'nobody_here');
    await page.fill('#f-password', 'a wrong password');
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForSelector('text=Wrong username or password');
    await page.click('button:has-text("E-mail code")');
    expect(await page.isVisible('button:has-text("Send code")')).toBe(true);
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-login');
    await context.close();
  });

  it('the switch in the header changes the language and keeps it', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('登录');
    expect(await page.textContent('#lang-switch')).toBe('English');
    await page.click('#lang-switch');
    await page.waitForFunction("document.documentElement.lang === 'en' && document.body.classList.contains('ready')");
    expect(await page.textContent('main h1')).toBe('Sign in');
    await page.goto(`${env.center.baseUrl}/register`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Create an account');
    expect(await page.textContent('#lang-switch')).toBe('中文');
    await page.click('#lang-switch');
    await page.waitForFunction("document.documentElement.lang === 'zh-CN' && document.body.classList.contains('ready')");
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
