import { readFileSync } from 'node:fs';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import {
  centerAndBrowser,
  DESKTOP,
  horizontalOverflow,
  newPage,
  screenshot,
  signIn,
  storedKeys,
} from './browser.js';

const env = centerAndBrowser();
const A = '/api/v1/auth';
const NARROW = { width: 375, height: 760 };

const sessionCookie = async (context: BrowserContext) =>
  (await context.cookies(env.center.baseUrl)).find(
    (c) => c.name === 'ac_session',
  )?.value;

/** Turns the authenticator on over the API; the page then asks for a code with the password. */
async function withAuthenticator(
  token: string,
  password: string,
): Promise<void> {
  const { secret } = (
    await env.center.post(
      `${A}/account/totp/setup`,
      { current_password: password },
      token,
    )
  ).json().data;
  expect(
    (
      await env.center.post(
        `${A}/account/totp/enable`,
        { code: await generate({ secret }) },
        token,
      )
    ).statusCode,
  ).toBe(200);
}

/** Enrols the authenticator through the page and waits for the ten recovery codes. */
async function enrolOnPage(page: Page, password: string): Promise<string[]> {
  await page.fill('#f-totp_setup_password', password);
  await page.click('#totp-setup');
  const secret = (await page.textContent('#totp-secret'))!.trim();
  await page.fill('#f-totp_code', await generate({ secret }));
  await page.click('#totp-enable');
  await page.waitForSelector('#recovery-codes li');
  return (await page.locator('#recovery-codes li').allTextContents()).map((c) =>
    c.trim(),
  );
}

describe('account page: what a newcomer finds', () => {
  it('after an e-mail change every place on the page names the new address', async () => {
    const u = await env.center.register({ username: uniqueName('mail') });
    const next = `${uniqueName('moved')}@example.net`;
    const { context, page } = await newPage(env.browser, NARROW);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await expect(page.textContent('#change-email-current')).resolves.toBe(
      u.email,
    );
    await page.fill('#f-new_email', next);
    await page.fill('#f-change_email_password', u.password);
    await page.click('#send-change-code');
    await page.waitForSelector('#change-email .notice.success');
    await page.fill(
      '#f-change_email_code',
      await env.center.smtp.codeFor(next),
    );
    await page.click('#change-email button[type=submit]');
    await page.waitForSelector(
      '#change-email .notice.success:has-text("邮箱已更换")',
    );
    await expect(page.textContent('#change-email-current')).resolves.toBe(next);
    await expect(page.textContent('#profile-email')).resolves.toBe(next);
    // The old address is named nowhere on the page any more.
    expect(await page.textContent('main')).not.toContain(u.email);
    await context.close();
  });

  it('account deletion reports an empty password, then an empty code, before asking to confirm', async () => {
    const u = await env.center.register({ username: uniqueName('del') });
    const { context, page } = await newPage(env.browser, NARROW);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.click('#delete-section summary');
    await page.click('#delete-account');
    await page.waitForSelector(
      '#err-delete_password:has-text("请填写当前密码")',
    );
    expect(dialogs).toEqual([]);
    await screenshot(page, 'account-delete-empty-phone');
    await page.locator('#danger').screenshot({
      path: 'test-artifacts/e2e/account-delete-empty-phone-section.png',
    });

    // A filled form is the one that asks; dismissing it keeps the account.
    await page.fill('#f-delete_password', u.password);
    await expect(page.locator('#err-delete_password').isHidden()).resolves.toBe(
      true,
    );
    await page.click('#delete-account');
    await expect.poll(() => dialogs.length).toBe(1);
    expect(
      (
        await env.center.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);

    // With the authenticator on, the code is required as well.
    await withAuthenticator(u.token, u.password);
    await page.reload();
    await page.click('#delete-section summary');
    await page.waitForSelector('#f-delete_otp:visible');
    await page.fill('#f-delete_password', u.password);
    await page.click('#delete-account');
    await page.waitForSelector('#err-delete_otp:has-text("请填写两步验证码")');
    expect(dialogs.length).toBe(1);
    await context.close();
  });

  it('recovery codes can be copied (one a line) and downloaded as recovery-codes.txt', async () => {
    const u = await env.center.register({ username: uniqueName('codes') });
    const { context, page } = await newPage(env.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: env.center.baseUrl,
    });
    await signIn(page, env.center.baseUrl, u.username, u.password);
    const codes = await enrolOnPage(page, u.password);
    expect(codes).toHaveLength(10);
    await screenshot(page, 'account-recovery-codes-actions');

    await page.click('#recovery-copy');
    await page.waitForSelector('#recovery-copy:has-text("已复制")');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      codes.join('\n'),
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#recovery-download'),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(
      `${codes.join('\n')}\n`,
    );

    // New codes come with the same two buttons, holding the new codes.
    await page.fill('#f-recovery_code_password', u.password);
    await page.fill('#f-recovery_code_otp', codes[0]!);
    await page.click('#recovery-regenerate');
    await expect
      .poll(async () => (await page.textContent('#recovery-codes li'))?.trim())
      .not.toBe(codes[0]);
    const fresh = (
      await page.locator('#recovery-codes li').allTextContents()
    ).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[1]);
    await page.click('#recovery-copy');
    await page.waitForSelector('#recovery-copy:has-text("已复制")');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      fresh.join('\n'),
    );
    const [again] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#recovery-download'),
    ]);
    expect(readFileSync((await again.path())!, 'utf8')).toBe(
      `${fresh.join('\n')}\n`,
    );
    await context.close();
  });
});

describe('header account menu and /account contents', () => {
  it('signed out, the header offers 登录 and 注册', async () => {
    const { context, page } = await newPage(env.browser, NARROW);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('header nav a[href="/register"]');
    expect(await page.locator('header nav a').allTextContents()).toEqual([
      '登录',
      '注册',
    ]);
    await screenshot(page, 'header-signed-out-phone');
    await context.close();
  });

  it('an admin opens the menu by keyboard on another page and finds 管理后台', async () => {
    const admin = await env.center.admin();
    const { context, page } = await newPage(env.browser, DESKTOP);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.focus('#user-menu summary');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#user-menu-items a:has-text("账号设置")');
    const labels = await page
      .locator('#user-menu-items .menu-item')
      .allTextContents();
    expect(labels).toEqual([
      '账号设置',
      '开发者控制台',
      '管理后台',
      '退出登录',
    ]);
    await screenshot(page, 'header-menu-admin-desktop');
    // Tab walks the items; Escape folds the menu back onto its button.
    await page.keyboard.press('Tab');
    await expect(
      page.evaluate<string>('document.activeElement.textContent'),
    ).resolves.toBe('账号设置');
    await page.keyboard.press('Escape');
    await expect(page.locator('#user-menu-items').isVisible()).resolves.toBe(
      false,
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.center.baseUrl}/admin`);
    await context.close();
  });

  it('at 375 px a user signs out from the header: token, session and browser cookie all end', async () => {
    const u = await env.center.register({ username: uniqueName('menu') });
    await env.center.post(
      `${A}/account/profile`,
      { display_name: '小明同学' },
      u.token,
    );
    const { context, page } = await newPage(env.browser, NARROW);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    expect(await sessionCookie(context)).toBeTruthy();
    const token = await page.evaluate<string>(
      'localStorage.getItem(Object.keys(localStorage)[0])',
    );
    await expect(page.textContent('#user-menu summary')).resolves.toContain(
      '小明同学',
    );
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The page's own contents come first: a link to each section that is there.
    const nav = page.locator('#account-nav a');
    expect(await nav.allTextContents()).toEqual([
      '资料',
      '安全',
      '两步验证',
      '通行密钥',
      '第三方账号',
      '登录设备',
      '登录记录',
      '已授权的应用',
      '游戏令牌',
      '注销账号',
    ]);
    for (const href of await nav.evaluateAll((links) =>
      links.map((a) => a.getAttribute('href')),
    )) {
      expect(await page.locator(href!).count()).toBe(1);
    }
    await screenshot(page, 'account-nav-phone');
    await page.click('#account-nav a:has-text("注销账号")');
    await page.waitForSelector('#f-delete_password:visible');

    await page.click('#user-menu summary');
    expect(
      await page.locator('#user-menu-items .menu-item').allTextContents(),
    ).toEqual(['账号设置', '开发者控制台', '退出登录']);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'header-menu-open-phone');
    // The whole page is long; this one is what the phone shows at the top.
    await page.screenshot({
      path: 'test-artifacts/e2e/header-menu-open-phone-top.png',
    });
    await page.click('#menu-logout');
    await page.waitForURL(`${env.center.baseUrl}/login`);
    expect(await storedKeys(page)).toEqual([]);
    expect(await sessionCookie(context)).toBeUndefined();
    expect((await env.center.get(`${A}/me`, token)).statusCode).toBe(401);
    await context.close();
  });
});
