import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  signIn,
} from './browser.js';

/**
 * The administration pages at phone width in both languages: the eight tabs wrap onto a
 * second row instead of pushing the page sideways or breaking a label between its letters,
 * the role editor stays on screen, and fields side by side line up at their labels.
 */
const env = centerAndBrowser();
const LANGUAGES = ['zh-CN', 'en-US'];

async function adminOnPhone(locale: string) {
  const admin = await env.center.admin();
  const { context, page } = await newPage(env.browser, PHONE, locale);
  await signIn(page, env.center.baseUrl, admin.username, admin.password);
  return { admin, context, page };
}

/** How many lines each tab's label takes. */
function tabLines(page: Page): Promise<Record<string, number>> {
  return page.evaluate<
    Record<string, number>
  >(`Object.fromEntries([...document.querySelectorAll('.tabs .tab')].map((tab) => {
    const range = document.createRange();
    range.selectNodeContents(tab);
    return [tab.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
  }))`);
}

describe('e2e: administration at phone width', () => {
  for (const locale of LANGUAGES) {
    it(`${locale}: every view fits the screen and each tab label stays on one line`, async () => {
      const { admin, context, page } = await adminOnPhone(locale);
      for (const view of [
        '',
        '?view=dashboard',
        '?view=providers',
        '?view=audit',
        '?view=roles',
        `?view=user&username=${admin.username}`,
      ]) {
        await page.goto(`${env.center.baseUrl}/admin${view}`);
        await page.waitForSelector('.tabs .tab.active');
        await page.waitForLoadState('networkidle');
        const lines = await tabLines(page);
        expect(Object.keys(lines)).toHaveLength(8);
        expect(Object.entries(lines).filter(([, n]) => n !== 1)).toEqual([]);
        expect(
          await horizontalOverflow(page),
          `/admin${view}`,
        ).toBeLessThanOrEqual(0);
      }
      await context.close();
    });

    it(`${locale}: the role editor of a listed user stays inside the screen`, async () => {
      const { admin, context, page } = await adminOnPhone(locale);
      await page.goto(`${env.center.baseUrl}/admin`);
      const save = page.locator(
        `tr[data-username="${admin.username}"] [data-action="roles"]`,
      );
      await save.waitFor();
      const box = (await save.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await context.close();
    });

    it(`${locale}: the new sign-in method's ID and type line up at their labels`, async () => {
      const { context, page } = await adminOnPhone(locale);
      await page.goto(`${env.center.baseUrl}/admin?view=providers`);
      const idLabel = page.locator('label[for="f-provider_id"]');
      await idLabel.waitFor();
      const typeLabel = page.locator('label[for="f-provider_type"]');
      const [id, type] = [
        (await idLabel.boundingBox())!,
        (await typeLabel.boundingBox())!,
      ];
      expect(Math.abs(id.y - type.y)).toBeLessThan(1);
      expect(type.x).toBeGreaterThan(id.x);
      await context.close();
    });
  }
});
