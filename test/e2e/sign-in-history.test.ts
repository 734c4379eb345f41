import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import {
  centerAndBrowser,
  DESKTOP,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';

/** 登录记录 on /account and on a user's admin page (docs/api.md §17), in Chromium. */
const env = centerAndBrowser();
const A = '/api/v1/auth';
const FIREFOX =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0';
const rows = (page: Page, table: string, n: number) =>
  expect
    .poll(() => page.locator(`${table} tr.sign-in`).count(), {
      timeout: 10_000,
    })
    .toBe(n);

describe('sign-in history pages', () => {
  it('/account lists the sign-ins newest first and turns the notice off (phone)', async () => {
    const u = await env.center.register({ username: uniqueName('hist') });
    expect(
      (
        await env.center.post(
          `${A}/login`,
          { username: u.username, password: u.password },
          undefined,
          { 'user-agent': FIREFOX },
        )
      ).statusCode,
    ).toBe(200);
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await rows(page, '#sign-in-list', 2);
    const cells = (i: number) =>
      page
        .locator('#sign-in-list tr.sign-in')
        .nth(i)
        .locator('td')
        .allTextContents();
    const [newest, older] = [await cells(0), await cells(1)];
    expect(newest.slice(1, 3)).toEqual(['密码', '127.0.0.1']);
    expect(newest[3]).toContain('Chrome');
    expect(older[3]).toBe('Firefox · Windows');
    // Chromium is a new browser for the account: its sign-in was mailed.
    await env.center.mailSent();
    expect(
      env.center.smtp
        .subjectsTo(u.email)
        .some((s) => s.includes('新设备登录提醒')),
    ).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'account-sign-in-history-phone');

    await expect.poll(() => page.isEnabled('#f-sign_in_notice')).toBe(true);
    expect(await page.isChecked('#f-sign_in_notice')).toBe(true);
    await page.click('#f-sign_in_notice');
    await page.waitForSelector('#sign-in-history .notice.success');
    expect(
      (await env.center.get(`${A}/account/sign_in_notice`, u.token)).json()
        .data,
    ).toEqual({ enabled: false });
    await page.reload();
    await expect.poll(() => page.isEnabled('#f-sign_in_notice')).toBe(true);
    expect(await page.isChecked('#f-sign_in_notice')).toBe(false);
    await context.close();
  });

  it("an administrator sees them on the user's page", async () => {
    const u = await env.center.register({ username: uniqueName('hist') });
    expect(
      (
        await env.center.post(
          `${A}/login`,
          { username: u.username, password: u.password },
          undefined,
          { 'user-agent': FIREFOX },
        )
      ).statusCode,
    ).toBe(200);
    const admin = await env.center.admin();
    const { context, page } = await newPage(env.browser, DESKTOP);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(
      `${env.center.baseUrl}/admin?view=user&username=${encodeURIComponent(u.username)}`,
    );
    await rows(page, '#admin-sign-in-list', 1);
    expect(
      await page.locator('#admin-sign-in-list tr.sign-in td').allTextContents(),
    ).toEqual(
      expect.arrayContaining(['密码', '127.0.0.1', 'Firefox · Windows']),
    );
    await screenshot(page, 'admin-user-sign-ins');
    await context.close();
  });
});
