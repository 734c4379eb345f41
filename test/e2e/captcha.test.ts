import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import {
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';

/**
 * The ALTCHA widget on the pages (docs/abuse.md), solved by Chromium itself under the
 * pages' CSP: sign-up with an e-mail code (two solutions: send_code, then register), and
 * the login form that shows the widget once the server asks for it.
 */
let center: Center;
let browser: Browser;

beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter({
      CAPTCHA: 'altcha',
      CAPTCHA_COST: '20000',
      REGISTRATION: 'invite',
      IP_RATE_LIMITS: 'on',
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

/** Every CSP report and script error of the page. */
function problems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(e.message));
  return seen;
}

const verified = (page: Page) =>
  page.waitForSelector(
    'altcha-widget [data-state="verified"], altcha-widget .altcha[data-state="verified"]',
    { timeout: 30_000 },
  );

describe('邀请码 in the admin console', () => {
  // First in the file: later tests fail sign-ins from this address on purpose.
  it('makes a code shown once, lists its uses, and the code signs a person up', async () => {
    const admin = {
      username: uniqueName('ia'),
      password: 'correct horse battery',
    };
    await center.runtime.services.admin.createUser(
      {
        ...admin,
        email: `${admin.username}@example.com`,
        roles: ['player', 'admin'],
      },
      'test',
    );
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, admin.username, admin.password);
    await page.goto(`${center.baseUrl}/admin?view=invites`);
    await page.fill('#f-uses', '2');
    await page.fill('#f-expires_days', '7');
    await page.click('button:has-text("生成邀请码")');
    const code = await page.locator('#invite-made input').inputValue();
    await page.waitForSelector('#invites li.invite:has-text("剩余 2 次")');
    await screenshot(page, 'admin-invites');
    const username = uniqueName('iv');
    const res = await center.post('/api/v1/auth/register', {
      username,
      password: 'correct horse battery',
      email: `${username}@example.com`,
      invite_code: code,
      captcha: await solvedCaptcha(center),
    });
    expect(res.statusCode).toBe(200);
    await page.reload();
    await page.waitForSelector('#invites li.invite:has-text("剩余 1 次")');
    await context.close();
  }, 90_000);
});

describe('the CAPTCHA widget', () => {
  it('is solved on /register for the e-mail code and for the sign-up itself', async () => {
    const { code } = await center.runtime.services.abuse.invites.create(
      { uses: 1 },
      'test',
    );
    const { context, page } = await newPage(browser);
    const errors = problems(page);
    const username = uniqueName('cw');
    const email = `${username}@example.com`;
    await page.goto(`${center.baseUrl}/register`);
    await page.fill('#f-invite_code', code);
    await page.fill('#f-username', username);
    await page.fill('#f-email', email);
    await verified(page);
    await screenshot(page, 'captcha-register-solved');
    await page.click('text=发送验证码');
    await page.waitForSelector('text=验证码已发送');
    await page.fill('#f-email_code', await center.smtp.codeFor(email));
    await page.fill('#f-password', 'correct horse battery');
    await page.click('button:has-text("注册")');
    await page.waitForURL(`${center.baseUrl}/account`, { timeout: 30_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('is solved on /account before a verify code is sent', async () => {
    const person = {
      username: uniqueName('cv'),
      password: 'correct horse battery',
    };
    const { code } = await center.runtime.services.abuse.invites.create(
      { uses: 1 },
      'test',
    );
    // Registered without an e-mail code: the address is still to be verified.
    const made = await center.post('/api/v1/auth/register', {
      ...person,
      email: `${person.username}@example.com`,
      invite_code: code,
      captcha: await solvedCaptcha(center),
    });
    expect(made.statusCode).toBe(200);
    const { context, page } = await newPage(browser);
    const errors = problems(page);
    await signIn(page, center.baseUrl, person.username, person.password);
    await page.click('#verify-email button:has-text("发送验证码")');
    await page.waitForSelector(
      '#verify-email .notice:has-text("验证码已发送")',
      { timeout: 30_000 },
    );
    expect(await page.locator('#verify-email altcha-widget').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('appears on /login after failed tries and lets the right password in', async () => {
    const account = {
      username: uniqueName('cl'),
      password: 'correct horse battery',
    };
    await center.runtime.services.admin.createUser(
      {
        ...account,
        email: `${account.username}@example.com`,
        roles: ['player'],
      },
      'test',
    );
    const { context, page } = await newPage(browser);
    const errors = problems(page);
    await page.goto(`${center.baseUrl}/login`);
    expect(await page.locator('altcha-widget').count()).toBe(0);
    await page.fill('#f-username', account.username);
    for (let i = 0; i < 3; i++) {
      await page.fill('#f-password', 'wrong password');
      await page.click('form:not([hidden]) button[type=submit]');
      await page.waitForSelector('.notice.error:has-text("用户名或密码错误")');
    }
    await page.fill('#f-password', account.password);
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForSelector('.notice.error:has-text("请完成人机验证")');
    await verified(page);
    await screenshot(page, 'captcha-login-asked');
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForURL(`${center.baseUrl}/account`, { timeout: 30_000 });
    expect(
      errors.filter((e) => !e.includes('401') && !e.includes('400')),
    ).toEqual([]);
    await context.close();
  }, 90_000);
});
