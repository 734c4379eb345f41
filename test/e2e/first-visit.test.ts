import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  screenshot,
  startCenter,
  type Center,
} from './browser.js';

/** What a first visitor meets: an address that is no page, the icon, a blocked sign-in, the API docs. */
let center: Center;
let browser: Browser;
beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter({ LIMIT_LOGIN_PAIR: '2/900' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

describe('a first visit', () => {
  it('an unknown address shows 页面不存在 in the site layout, with a way home and the icon', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/404/.test(m.text())) errors.push(m.text());
    });
    const res = await page.goto(`${center.baseUrl}/no-such-page`);
    expect(res?.status()).toBe(404);
    await page.waitForSelector('body.ready');
    await expect(page.textContent('main h1')).resolves.toBe('页面不存在');
    await expect(page.title()).resolves.toBe('页面不存在 - 账号中心');
    await expect(page.isVisible('header.topbar a.brand')).resolves.toBe(true);
    await screenshot(page, 'not-found');
    const icon = await page.evaluate<{
      href: string;
      ok: boolean;
      type: string | null;
    }>(`(async () => {
      const href = document.querySelector('link[rel=icon]').href;
      const res = await fetch(href);
      return { href, ok: res.ok, type: res.headers.get('content-type') };
    })()`);
    expect(icon).toEqual({
      href: `${center.baseUrl}/favicon.svg`,
      ok: true,
      type: 'image/svg+xml',
    });
    await page.click('a:has-text("返回首页")');
    await page.waitForURL(/\/(account|login)/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a blocked sign-in says how long to wait', async () => {
    const user = await center.register();
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login`);
    await page.fill('#f-username', user.username);
    await page.fill('#f-password', 'wrong password!');
    for (let i = 0; i < 2; i++) {
      await page.click('form:not([hidden]) button[type=submit]');
      await page.waitForSelector('.notice.error:has-text("用户名或密码错误")');
      await page.evaluate(
        'document.querySelector(".notice.error").textContent = ""',
      );
    }
    await page.click('form:not([hidden]) button[type=submit]');
    const notice = await page.waitForSelector(
      '.notice.error:has-text("请求过于频繁")',
    );
    // LIMIT_LOGIN_PAIR=2/900: the rest of a 15-minute window, rounded up to whole minutes.
    expect(await notice.textContent()).toBe(
      '请求过于频繁，请稍后再试（请 15 分钟后再试）',
    );
    await screenshot(page, 'login-rate-limited');
    await context.close();
  });

  it('/docs shows the API without a single CSP error in the console', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${center.baseUrl}/docs`);
    await page.waitForSelector(
      '.opblock-summary-path[data-path="/oauth/token"]',
    );
    await page.waitForSelector(
      '.opblock-summary-path[data-path="/api/v1/auth/login"]',
    );
    await screenshot(page, 'docs');
    expect(errors).toEqual([]);
    await context.close();
  });
});
