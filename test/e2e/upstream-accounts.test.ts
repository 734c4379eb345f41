import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import {
  newPage,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';
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
let adminToken: string;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, browser, steam, discord, adminToken } =
    await startUpstreamCenter());
});
afterAll(async () => {
  await closeUpstreamCenter({ center, browser, steam, discord });
});

describe('pages: sign in with other accounts', () => {
  it('with an e-mail allow list, a provider without an address says in the page language that no account is made', async () => {
    const listed = await startCenter({
      REGISTRATION_EMAIL_DOMAINS: 'example.com',
    });
    try {
      const token = (await listed.admin()).token;
      expect(
        (
          await listed.post(
            `${A}/admin/providers`,
            {
              id: 'steam',
              type: 'steam',
              name: 'Steam',
              openid_endpoint: steam.endpoint,
            },
            token,
          )
        ).statusCode,
      ).toBe(200);
      steam.signInAs({ id: '76561198000000009', personaname: 'Unlisted' });
      for (const [locale, text] of [
        [
          'zh-CN',
          '注册需要邮箱，但 Steam 没有提供经过验证的邮箱。请先用邮箱注册账号，再在账号页面绑定 Steam。',
        ],
        [
          'en-US',
          'Signing up needs an e-mail address, and Steam gave no verified one. Please sign up with your e-mail address first, then link Steam on your account page.',
        ],
      ] as const) {
        const { context, page } = await newPage(browser, undefined, locale);
        await page.goto(`${listed.baseUrl}/login`);
        await page
          .getByRole('button', {
            name: locale === 'en-US' ? 'Sign in with Steam' : '使用 Steam 登录',
            exact: true,
          })
          .click();
        await page.getByText(text).waitFor();
        await page.locator('#upstream-back').waitFor();
        await context.close();
      }
    } finally {
      await listed.close();
    }
  });

  it('an account without a password proves itself with its provider, and cannot unlink its last way in', async () => {
    steam.signInAs({ id: '76561198000000003', personaname: 'Barney' });
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login`);
    await button(page, 'Steam').click();
    await page.waitForURL(`${center.baseUrl}/account`);
    await page.click('#upstream-reauth button[data-provider="steam"]');
    await page.waitForURL(`${center.baseUrl}/account`);
    await page.getByText('已通过 Steam 验证身份').waitFor();
    const row = page.locator('#upstream-links [data-provider="steam"]');
    await row.getByRole('button', { name: '解除绑定' }).click();
    await row.getByRole('button', { name: '确认解除绑定' }).click();
    await page
      .getByText('这是账号唯一的登录方式，请先设置密码或绑定其他登录方式')
      .waitFor();
    await screenshot(page, 'upstream-account');
    await context.close();
  });

  it('links a provider from /account after the password, and a disabled provider loses its button at once', async () => {
    const person = await center.register({ username: uniqueName('linker') });
    discord.signInAs({
      id: '90000000000000002',
      username: 'linker_on_discord',
      global_name: 'Linker',
    });
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, person.username, person.password);
    const link = page.locator('#upstream .upstream-available');
    await link.getByRole('button', { name: '绑定 Discord' }).click();
    await page.fill('#f-link_discord_password', person.password);
    await link.getByRole('button', { name: '确认绑定 Discord' }).click();
    await page.getByText('已绑定 Discord').waitFor();
    expect(await page.textContent('#upstream-links')).toContain('Linker');

    expect(
      (
        await center.post(
          `${A}/admin/providers/status`,
          { id: 'discord', enabled: false },
          adminToken,
        )
      ).statusCode,
    ).toBe(200);
    await page.goto(`${center.baseUrl}/login?switch=1`);
    await button(page, 'Steam').waitFor();
    expect(await button(page, 'Discord').count()).toBe(0);
    expect(
      (
        await center.post(
          `${A}/admin/providers/status`,
          { id: 'discord', enabled: true },
          adminToken,
        )
      ).statusCode,
    ).toBe(200);
    await context.close();
  });

  it('the admin console (登录方式) adds a provider, shows its callback address, and switches it off', async () => {
    const admin = await center.admin();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, admin.username, admin.password);
    await page.goto(`${center.baseUrl}/admin?view=providers`);
    await page.locator('#providers [data-provider="steam"]').waitFor();
    await page.fill('#f-provider_id', 'github');
    await page.selectOption('#f-provider_type', 'github');
    await page.fill('#f-provider_name', 'GitHub');
    await page.fill('#f-provider_client_id', 'Iv1.console');
    await page.fill('#f-provider_client_secret', 'console-secret-0123456789');
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const row = page.locator('#providers [data-provider="github"]');
    await row.waitFor();
    expect(await row.locator('input').inputValue()).toBe(
      `${center.baseUrl}/login/github/callback`,
    );
    expect(await page.textContent('#providers-view')).not.toContain(
      'console-secret-0123456789',
    );
    await screenshot(page, 'upstream-console');
    await row.getByRole('button', { name: '停用' }).click();
    await row.getByText('已停用').waitFor();
    const buttons = (await center.get(`${A}/upstream/providers`))
      .json()
      .data.providers.map((p: { id: string }) => p.id);
    expect(buttons).not.toContain('github');
    await context.close();
  });
});
