import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/app.js';
import {
  centerAndBrowser,
  launchBrowser,
  newPage,
  screenshot,
  startCenter,
} from './browser.js';

const env = centerAndBrowser();
const PHONE_375 = { width: 375, height: 800 };

describe('pages: the sign-up form reports every field at once', () => {
  it('username `ab` and password `short`: both errors show, each under its own field, and nothing is sent', async () => {
    const { context, page } = await newPage(env.browser);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/auth/register')) sent.push(r.url());
    });
    await page.goto(`${env.center.baseUrl}/register`);
    await page.fill('#f-username', 'ab');
    await page.fill('#f-email', 'not-an-address');
    await page.fill('#f-password', 'short');
    await page.click('button:has-text("注册")');
    await page.waitForSelector('#err-username:not([hidden])');
    // Each error sits inside its own field's box, next to the input it concerns.
    expect(
      await page.textContent('.field:has(#f-username) .field-error'),
    ).toContain('3–32 位');
    expect(await page.textContent('.field:has(#f-email) .field-error')).toBe(
      '邮箱格式不正确',
    );
    expect(await page.textContent('.field:has(#f-password) .field-error')).toBe(
      '密码长度需为 8 到 128 个字符',
    );
    expect(await page.getAttribute('#f-password', 'aria-invalid')).toBe('true');
    expect(await page.isVisible('#err-email_code')).toBe(false);
    expect(sent).toEqual([]);
    await screenshot(page, 'register-field-errors');
    // Fixing a field takes its error away; the others stay until fixed.
    await page.fill('#f-username', uniqueName('fix'));
    expect(await page.isVisible('#err-username')).toBe(false);
    expect(await page.isVisible('#err-password')).toBe(true);
    await context.close();
  });

  it('a refusal from the server about one field (name taken) goes next to that field', async () => {
    const taken = await env.center.register();
    const { context, page } = await newPage(env.browser, PHONE_375);
    await page.goto(`${env.center.baseUrl}/register`);
    await page.fill('#f-username', taken.username);
    await page.fill('#f-email', `${uniqueName('m')}@example.com`);
    await page.fill('#f-password', 'correct horse battery');
    await page.click('button:has-text("注册")');
    await page.waitForSelector('#err-username:has-text("用户名已被占用")');
    expect(await page.isVisible('.notice.error')).toBe(false);
    await screenshot(page, 'register-field-errors-phone');
    await context.close();
  });

  it('the e-mail code is marked 选填 by default, and signing up without it works', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/register`);
    expect(await page.textContent('label[for="f-email_code"]')).toContain(
      '选填',
    );
    expect(await page.getAttribute('#f-email_code', 'required')).toBeNull();
    await page.fill('#f-username', uniqueName('nocode'));
    await page.fill('#f-email', `${uniqueName('m')}@example.com`);
    await page.fill('#f-password', 'correct horse battery');
    await page.click('button:has-text("注册")');
    await page.waitForURL(`${env.center.baseUrl}/account`);
    await context.close();
  });

  it('with REGISTER_REQUIRES_EMAIL_CODE the code field is required, and an empty one is said before sending', async () => {
    const [center, browser] = await Promise.all([
      startCenter({ REGISTER_REQUIRES_EMAIL_CODE: 'true' }),
      launchBrowser(),
    ]);
    try {
      const { page } = await newPage(browser);
      await page.goto(`${center.baseUrl}/register`);
      const label = await page.textContent('label[for="f-email_code"]');
      expect(label).toContain('邮箱验证码');
      expect(label).not.toContain('选填');
      expect(
        await page.getAttribute('#f-email_code', 'required'),
      ).not.toBeNull();
      await page.fill('#f-username', uniqueName('need'));
      await page.fill('#f-email', `${uniqueName('m')}@example.com`);
      await page.fill('#f-password', 'correct horse battery');
      await page.click('button:has-text("注册")');
      await page.waitForSelector(
        '#err-email_code:has-text("请填写邮箱验证码")',
      );
      await screenshot(page, 'register-code-required');
    } finally {
      await browser.close();
      await center.close();
    }
  });
});

describe('pages: the password reset form', () => {
  it('says every empty field under the field before sending anything', async () => {
    const { context, page } = await newPage(env.browser);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/auth/')) sent.push(r.url());
    });
    await page.goto(`${env.center.baseUrl}/reset_password`);
    await page.click('button[type=submit]:has-text("重置密码")');
    await page.waitForSelector('#err-email:has-text("请填写邮箱")');
    expect(await page.textContent('#err-code')).toBe('请填写验证码');
    expect(await page.textContent('#err-new_password')).toBe('请填写新密码');
    expect(sent).toEqual([]);
    await context.close();
  });
});

describe('pages: the authenticator step of /login has a way back', () => {
  it('返回，使用其他账号登录 leads to the first step with the fields cleared and `next` kept', async () => {
    const u = await env.center.register({ username: uniqueName('back') });
    const { secret } = (
      await env.center.post(
        '/api/v1/auth/account/totp/setup',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await env.center.post(
          '/api/v1/auth/account/totp/enable',
          { code: await generate({ secret }) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const { context, page } = await newPage(env.browser, PHONE_375);
    const next = '/device?user_code=123456';
    await page.goto(
      `${env.center.baseUrl}/login?next=${encodeURIComponent(next)}`,
    );
    await page.fill('#f-username', u.username);
    await page.fill('#f-password', u.password);
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForSelector('#f-otp');
    await screenshot(page, 'login-second-step-back');
    await page.click('#second-step-back');
    await page.waitForSelector('#f-username');
    expect(await page.inputValue('#f-username')).toBe('');
    expect(await page.inputValue('#f-password')).toBe('');
    expect(await page.isVisible('#f-otp')).toBe(false);
    expect(new URL(page.url()).searchParams.get('next')).toBe(next);
    await context.close();
  });
});
