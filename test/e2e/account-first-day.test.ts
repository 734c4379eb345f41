import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import { makePng } from '../helpers/png.js';
import { waitFor } from '../helpers/wait.js';
import {
  DESKTOP,
  horizontalOverflow,
  launchBrowser,
  newPage,
  PHONE,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';

/**
 * What a new operator and a new player meet on /account and /login: the launcher address,
 * "set a password" for an account without one, passkeys explained at an IP address (these
 * pages are served at http://127.0.0.1:…), and an administrator's own deletion explained.
 */
let center: Center;
let browser: Browser;
beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter({ MINECRAFT: 'on' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

describe('/account on the first day', () => {
  it('shows the address to paste into a launcher, and aligns the skin and cape rows', async () => {
    const u = await center.register({ username: uniqueName('mc') });
    for (const [locale, viewport] of [
      ['zh-CN', DESKTOP],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport, locale);
      await signIn(page, center.baseUrl, u.username, u.password);
      await page.waitForSelector('#minecraft:not([hidden])');
      await expect(page.inputValue('#minecraft-api input')).resolves.toBe(
        `${center.baseUrl}/api/yggdrasil/`,
      );
      if (locale === 'zh-CN') {
        await page.fill('#f-minecraft_name', `S${Date.now().toString(36)}`);
        await page.click('#minecraft button[type=submit].primary');
        const row = page.locator('#minecraft .minecraft-profile');
        await row.locator('input[type=file][name^="skin_"]').setInputFiles({
          name: 'skin.png',
          mimeType: 'image/png',
          buffer: makePng(64, 64),
        });
        await row.locator('button:has-text("上传皮肤")').click();
        await page.waitForSelector('#minecraft .notice.success');
      }
      // The two texture rows start their forms at the same left edge.
      const lefts = await page.$$eval('#minecraft .texture form', (forms) =>
        forms.map((f) => Math.round(f.getBoundingClientRect().left)),
      );
      expect(lefts).toHaveLength(2);
      expect(lefts[0]).toBe(lefts[1]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await (await page.$('#minecraft'))!.screenshot({
        path: `test-artifacts/e2e/account-minecraft-${locale}-${viewport.width}.png`,
      });
      await context.close();
    }
  });

  it('an account without a password is offered to set one, and the e-mail text says how it proves itself', async () => {
    const u = await center.register();
    const pages = [];
    for (const [locale, viewport] of [
      ['zh-CN', DESKTOP],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport, locale);
      await signIn(page, center.baseUrl, u.username, u.password);
      pages.push({ locale, viewport, context, page });
    }
    // As an account made by signing in with another account: no password.
    await center.runtime.storage.users.update(
      u.uid,
      { passwordHash: '' },
      Date.now(),
    );
    // Written beside the service: its cache of the user learns of it within seconds.
    await waitFor(
      'the change seen',
      10_000,
      async () =>
        (await center.get('/api/v1/auth/account/upstream', u.token)).json().data
          .has_password === false,
    );
    for (const { locale, viewport, context, page } of pages) {
      await page.reload();
      const [set, hint] =
        locale === 'zh-CN'
          ? ['设置密码', '你的账号没有密码']
          : ['Set a password', 'Your account has no password'];
      await page.waitForSelector(`#change-password h2:text-is("${set}")`);
      await page.waitForSelector(
        `#change-password button[type=submit]:text-is("${set}")`,
      );
      await page.waitForSelector(`#change-email p:has-text("${hint}")`);
      expect(await page.textContent('#change-email p')).not.toMatch(
        /当前密码|current password/,
      );
      await (await page.$('#change-password'))!.screenshot({
        path: `test-artifacts/e2e/account-set-password-${locale}-${viewport.width}.png`,
      });
      await context.close();
    }
  });

  it('at an IP address, passkeys are explained instead of offered, on /login and /account', async () => {
    const u = await center.register();
    for (const [locale, viewport] of [
      ['zh-CN', DESKTOP],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport, locale);
      await page.goto(`${center.baseUrl}/login`);
      await page.waitForSelector('#passkeys-unavailable');
      expect(await page.$('#passkey-login')).toBeNull();
      const port = new URL(center.baseUrl).port;
      await expect(
        page.textContent('#passkeys-unavailable'),
      ).resolves.toContain(`http://localhost:${port}`);
      await screenshot(
        page,
        `login-passkeys-at-ip-${locale}-${viewport.width}`,
      );
      await signIn(page, center.baseUrl, u.username, u.password);
      await page.waitForSelector('#passkeys #passkeys-unavailable');
      expect(await page.$('#passkey-add')).toBeNull();
      await context.close();
    }
  });

  it('an administrator is told why they cannot delete their own account', async () => {
    const admin = await center.admin();
    for (const [locale, viewport] of [
      ['zh-CN', DESKTOP],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport, locale);
      await signIn(page, center.baseUrl, admin.username, admin.password);
      await page.click('#account-nav a[href="#danger"]');
      await page.waitForSelector('#delete-admin:visible');
      expect(await page.$('#delete-account')).toBeNull();
      await (await page.$('#danger'))!.screenshot({
        path: `test-artifacts/e2e/account-delete-admin-${locale}-${viewport.width}.png`,
      });
      await context.close();
    }
  });
});
