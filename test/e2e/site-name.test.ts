import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';

let center: Center;
let browser: Browser;
beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter({ SITE_NAME: '星海社区' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

describe('e2e: SITE_NAME is what the pages call the center', () => {
  it('the device page names the center itself by SITE_NAME', async () => {
    const started = (await center.post('/api/v1/auth/device/start', {})).json()
      .data;
    const person = await center.register();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, person.username, person.password);
    await page.goto(started.verification_uri_complete);
    const request = page.locator('#device-request');
    await request.waitFor();
    expect(await request.textContent()).toContain('「星海社区」请求登录');
    expect(await request.textContent()).toContain('这是星海社区本身的登录');
    expect(await page.getAttribute('body', 'data-site-name')).toBe('星海社区');
    expect(await page.content()).not.toContain('Account Center');
    await expect(page.title()).resolves.toMatch(/ - 星海社区$/);
    expect(await page.textContent('header .brand')).toBe('星海社区');
    await screenshot(page, 'device-site-name');
    await context.close();
  });

  it('the server-rendered sign-out page has it in its title and header', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/oauth/end_session`);
    await expect(page.title()).resolves.toMatch(/ - 星海社区$/);
    expect(await page.textContent('header .brand')).toBe('星海社区');
    await context.close();
  });
});
