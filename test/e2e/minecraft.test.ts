import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import { makePng } from '../helpers/png.js';
import {
  DESKTOP,
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
    startCenter({ MINECRAFT: 'on' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

describe('我的世界角色 on /account', () => {
  it('creates a character, uploads a slim skin and a cape, previews them, renames and deletes', async () => {
    const u = await center.register({ username: uniqueName('mc') });
    const { context, page } = await newPage(browser, DESKTOP);
    await signIn(page, center.baseUrl, u.username, u.password);
    await page.waitForSelector('#minecraft:not([hidden]) #minecraft-none');
    const name = `S${Date.now().toString(36)}`;
    await page.fill('#f-minecraft_name', name);
    await page.click('#minecraft button:has-text("创建角色")');
    const row = page.locator('#minecraft .minecraft-profile');
    await row.locator(`h3:has-text("${name}")`).waitFor();

    await row.locator('input[type=file][name^="skin_"]').setInputFiles({
      name: 'skin.png',
      mimeType: 'image/png',
      buffer: makePng(64, 64),
    });
    await row.locator('select[name^="model_"]').selectOption('slim');
    await row.locator('button:has-text("上传皮肤")').click();
    await page.waitForSelector(
      '#minecraft .notice.success:has-text("已更新皮肤")',
    );
    await row.locator('input[type=file][name^="cape_"]').setInputFiles({
      name: 'cape.png',
      mimeType: 'image/png',
      buffer: makePng(64, 32),
    });
    await row.locator('button:has-text("上传披风")').click();
    await page.waitForSelector(
      '#minecraft .notice.success:has-text("已更新披风")',
    );
    const previews = row.locator('.texture-preview img');
    await expect.poll(() => previews.count()).toBe(2);
    // The preview images load from {BASE_URL}/textures/{hash}.
    await page.waitForFunction(
      "[...document.querySelectorAll('#minecraft .texture-preview img')].every((i) => i.complete && i.naturalWidth > 0)",
    );
    await expect(
      row.locator('select[name^="model_"]').inputValue(),
    ).resolves.toBe('slim');
    await screenshot(page, 'minecraft-account-section');

    // A file that is not a PNG is refused with the page's message.
    await row.locator('input[type=file][name^="skin_"]').setInputFiles({
      name: 'skin.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a png'),
    });
    await row.locator('button:has-text("上传皮肤")').click();
    await page.waitForSelector(
      '#minecraft .notice.error:has-text("材质须为 PNG 图片")',
    );

    const renamed = `R${Date.now().toString(36)}`;
    await row.locator('input[name^="rename_"]').fill(renamed);
    await row.locator('button:has-text("改名")').click();
    await page.locator(`#minecraft h3:has-text("${renamed}")`).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.locator('#minecraft button:has-text("删除角色")').click();
    await page.waitForSelector('#minecraft-none');
    await context.close();
  });

  it('stays hidden when Minecraft sign-in is off', async () => {
    const off = await startCenter();
    try {
      const u = await off.register({ username: uniqueName('mcoff') });
      const { context, page } = await newPage(browser, DESKTOP);
      await signIn(page, off.baseUrl, u.username, u.password);
      await page.waitForSelector('#game-token-section');
      await page.waitForLoadState('networkidle');
      await expect(page.locator('#minecraft').isHidden()).resolves.toBe(true);
      await context.close();
    } finally {
      await off.close();
    }
  });
});
