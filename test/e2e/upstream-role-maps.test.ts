import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  DESKTOP,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';
import { CookieJar, throughProvider } from '../helpers/upstream/flow.js';
import { DISCORD_CLIENT, startDiscord } from '../helpers/upstream/discord.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';

/**
 * 登录方式 in Chromium, in both languages: a provider's role map set and changed in the form
 * (a bad map refused with the field named), the roles it gives beside it, and its last
 * failure shown without a visit to the audit page.
 */
let center: Center;
let browser: Browser;
let discord: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  [center, browser, discord] = await Promise.all([
    startCenter(),
    launchBrowser(),
    startDiscord(),
  ]);
  const admin = await center.admin();
  // A provider whose secret is wrong: Discord refuses the code exchange.
  const added = await center.post(
    `${A}/admin/providers`,
    {
      id: 'dc-broken',
      type: 'discord',
      name: 'Broken',
      client_id: DISCORD_CLIENT.id,
      client_secret: 'not-the-secret',
      authorization_endpoint: `${discord.base}/oauth2/authorize`,
      token_endpoint: `${discord.base}/api/oauth2/token`,
      api_base: `${discord.base}/api`,
    },
    admin.token,
  );
  expect(added.statusCode).toBe(200);
  discord.signInAs({ id: '1', username: 'someone' });
  const page = await throughProvider(center, 'dc-broken', new CookieJar());
  expect(page.result).toBe('error');
});
afterAll(async () => {
  await browser?.close();
  await discord?.close();
  await center?.close();
});

const CASES = [
  {
    locale: 'zh-CN',
    add: '添加',
    save: '保存',
    edit: '编辑',
    legend: '由该登录方式授予角色',
    gives: '授予角色：',
    lastError: '最近一次错误',
  },
  {
    locale: 'en-US',
    add: 'Add',
    save: 'Save',
    edit: 'Edit',
    legend: 'Roles from this provider',
    gives: 'Gives roles:',
    lastError: 'Last error',
  },
];

describe('the providers page: roles from the provider', () => {
  for (const c of CASES) {
    it(`sets a Discord role map, refuses a bad one and shows the last error (${c.locale})`, async () => {
      const admin = await center.admin();
      const id = `dc-${c.locale.slice(0, 2)}`;
      const { context, page } = await newPage(browser, DESKTOP, c.locale);
      await signIn(page, center.baseUrl, admin.username, admin.password);
      await page.goto(`${center.baseUrl}/admin?view=providers`);
      const broken = page.locator('[data-last-error="dc-broken"]');
      await broken.waitFor();
      expect(await broken.textContent()).toContain(c.lastError);
      await page.getByText(c.legend, { exact: true }).waitFor();

      await page.fill('#f-provider_id', id);
      await page.selectOption('#f-provider_type', 'discord');
      await page.fill('#f-provider_name', `Discord ${c.locale}`);
      await page.fill('#f-provider_client_id', DISCORD_CLIENT.id);
      await page.fill('#f-provider_client_secret', DISCORD_CLIENT.secret);
      await page.fill('#f-provider_guild_id', '613425648685547541');
      await page.fill(
        '#f-provider_role_map',
        '{"41771983423143936": "moderator"}',
      );
      await page.getByRole('button', { name: c.add, exact: true }).click();
      const summary = page.locator(`[data-role-map="${id}"]`);
      await summary.waitFor();
      expect(await summary.textContent()).toBe(
        `${c.gives} 41771983423143936 → moderator`.replace('： ', '：'),
      );

      const row = page.locator(`#providers [data-provider="${id}"]`);
      await row.getByRole('button', { name: c.edit, exact: true }).click();
      const box = page.locator('#f-provider_role_map');
      expect(JSON.parse(await box.inputValue())).toEqual({
        '41771983423143936': 'moderator',
      });
      await box.fill('{"41771983423143936": "Moderator!"}');
      await page.getByRole('button', { name: c.save, exact: true }).click();
      await page
        .locator('.notice.error', { hasText: 'role_map' })
        .first()
        .waitFor();
      await box.fill(
        '{"41771983423143936": "mod", "41771983423143937": "vip"}',
      );
      await page.getByRole('button', { name: c.save, exact: true }).click();
      await page
        .locator(`[data-role-map="${id}"]`, { hasText: 'vip' })
        .waitFor();
      await screenshot(page, `upstream-role-map-${c.locale}`);
      const stored = (await center.get(`${A}/admin/providers`, admin.token))
        .json()
        .data.providers.find((p: { id: string }) => p.id === id);
      expect(stored).toMatchObject({
        guild_id: '613425648685547541',
        role_map: { '41771983423143936': 'mod', '41771983423143937': 'vip' },
      });
      expect(stored.scopes).toContain('guilds.members.read');
      await context.close();
    });
  }
});
