import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';
import {
  freePort,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from './browser.js';

/**
 * Second factors in a real Chromium. WebAuthn needs a secure context, and http://localhost
 * is one (127.0.0.1 as a relying-party id is not allowed): BASE_URL names localhost here.
 */
let center: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  [center, browser] = await Promise.all([
    createTestApp({ PORT: String(port), HOST: '127.0.0.1', BASE_URL: base }),
    launchBrowser(),
  ]);
  await center.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

/**
 * The code of the step after the current one: within the ±1 window, and later than the step
 * used at enrolment a moment ago, so it is never a replay of that one.
 */
const nextCode = (secret: string) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function signOut(page: Page): Promise<void> {
  await page.click('#logout');
  await page.waitForURL(`${base}/login`);
}

async function passwordStep(
  page: Page,
  username: string,
  password: string,
): Promise<void> {
  await page.fill('#f-username', username);
  await page.fill('#f-password', password);
  await page.click('form:not([hidden]) button[type=submit]');
}

describe('pages: authenticator app and passkeys', () => {
  it('enrols the authenticator, signs in with a code, adds a passkey and signs in with it alone', async () => {
    const u = await center.register({ username: uniqueName('mfa') });
    const { context, page } = await newPage(browser);
    await signIn(page, base, u.username, u.password);

    // Enrolment asks for the password before it shows a secret.
    await page.click('#totp-setup');
    await page.waitForSelector(
      '#two-factor .notice.error:has-text("当前密码或两步验证码不正确")',
    );
    expect(await page.locator('#totp-secret').count()).toBe(0);
    await page.fill('#f-totp_setup_password', u.password);
    await page.click('#totp-setup');
    // The secret is read from the page and the code computed with the same library.
    await page.waitForSelector('#totp-secret');
    const secret = (await page.textContent('#totp-secret'))!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await page.getAttribute('img.qr', 'src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await screenshot(page, 'totp-setup');
    await page.fill('#f-totp_code', await generate({ secret }));
    await page.click('#totp-enable');
    await page.waitForSelector('#recovery-codes li');
    expect(await page.locator('#recovery-codes li').count()).toBe(10);
    // Later changes take a code; the authenticator's next steps are spent below, so recovery codes serve.
    const recovery = await page.locator('#recovery-codes li').allTextContents();
    await expect(page.textContent('#totp-status')).resolves.toBe('已开启');
    await screenshot(page, 'totp-recovery-codes');

    // Sign-in now takes a second step, and still goes on to the page that asked for it.
    await signOut(page);
    await page.goto(
      `${base}/login?next=${encodeURIComponent('/device?user_code=123456')}`,
    );
    await passwordStep(page, u.username, u.password);
    await page.waitForSelector('#f-otp');
    await page.fill('#f-otp', '000000');
    await page.click('button:has-text("验证")');
    await page.waitForSelector('.notice.error:has-text("两步验证码错误")');
    await screenshot(page, 'totp-login-step');
    await page.fill('#f-otp', await nextCode(secret));
    await page.click('button:has-text("验证")');
    await page.waitForURL(`${base}/device?user_code=123456`);
    await page.goto(`${base}/account`);
    await expect(page.textContent('#profile-username')).resolves.toBe(
      u.username,
    );

    // A passkey, made by Chromium's virtual authenticator (CTAP2, built in, resident keys, UV).
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.fill('#f-passkey_name', 'Chromium 测试');
    // Adding one asks for the password and, the authenticator being on, a code.
    await page.click('#passkey-add');
    await page.waitForSelector(
      '#passkeys .notice.error:has-text("当前密码或两步验证码不正确")',
    );
    await page.fill('#f-passkey_add_password', u.password);
    await page.waitForSelector('#f-passkey_add_otp');
    await page.fill('#f-passkey_add_otp', recovery[0]!.trim());
    await page.click('#passkey-add');
    await page.waitForSelector('[data-passkey="Chromium 测试"]');
    await expect(
      page.textContent('[data-passkey="Chromium 测试"]'),
    ).resolves.toContain('尚未使用');
    await screenshot(page, 'passkey-added');

    // A password change leaves the passkey signing in: the page lists it right after.
    await page.fill('#f-current_password', u.password);
    await page.waitForSelector('#f-current_otp');
    await page.fill('#f-current_otp', recovery[2]!.trim());
    await page.fill('#f-new_password', 'a brand new password');
    await page.click('#change-password button[type=submit]');
    await page.waitForSelector(
      '#password-passkeys li:has-text("Chromium 测试")',
    );
    await screenshot(page, 'password-changed-passkeys');

    // A passkey sign-in needs no user name and counts as both factors: no code is asked.
    await signOut(page);
    await page.click('#passkey-login');
    await page.waitForURL(`${base}/account`);
    await expect(page.textContent('#profile-username')).resolves.toBe(
      u.username,
    );
    await page.waitForSelector('[data-passkey="Chromium 测试"]');
    await expect(
      page.textContent('[data-passkey="Chromium 测试"]'),
    ).resolves.toContain('上次使用');
    await screenshot(page, 'passkey-signed-in');

    // Deleting it asks for the proof too, and leaves the list empty.
    await page.click(
      '[data-passkey="Chromium 测试"] [data-action="delete-passkey"]',
    );
    await page.fill('#f-passkey_delete_password', 'a brand new password');
    await page.fill('#f-passkey_delete_otp', recovery[1]!.trim());
    await page.click(
      '[data-passkey="Chromium 测试"] [data-action="confirm-delete-passkey"]',
    );
    await page.waitForSelector('#passkey-list:has-text("还没有通行密钥")');
    await context.close();
  });

  it("an admin removes a locked-out user's second factor from /admin", async () => {
    const u = await center.register({ username: uniqueName('locked') });
    const { secret } = (
      await center.post(
        '/api/v1/auth/account/totp/setup',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await center.post(
          '/api/v1/auth/account/totp/enable',
          { code: await generate({ secret }) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const needs = await center.post('/api/v1/auth/login', {
      username: u.username,
      password: u.password,
    });
    expect(needs.json().msg).toBe('需要两步验证');

    const admin = await center.admin();
    const { context, page } = await newPage(browser);
    await signIn(page, base, admin.username, admin.password);
    await page.goto(`${base}/admin`);
    await page.fill('input[name=q]', u.username);
    await page.click('button:has-text("搜索")');
    // The button is on the user's page, shown because the authenticator is on.
    await page.click(`tr[data-username="${u.username}"] a`);
    await page.waitForSelector('#user-second-factor:has-text("身份验证器")');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#remove-second-factor');
    await page.waitForSelector(
      `.notice.success:has-text("已移除 ${u.username} 的两步验证")`,
    );
    await page.waitForSelector('#remove-second-factor', { state: 'detached' });
    await screenshot(page, 'admin-remove-second-factor');
    expect(
      (
        await center.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    await context.close();
  });
});

describe('pages: a passkey left unnamed', () => {
  it('is named in the language of the page that added it', async () => {
    const u = await center.register({ username: uniqueName('pk') });
    const { context, page } = await newPage(browser, undefined, 'en-US');
    await signIn(page, base, u.username, u.password);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.fill('#f-passkey_add_password', u.password);
    await page.click('#passkey-add');
    await page.waitForSelector('[data-passkey="Passkey"]');
    await context.close();
  });
});
