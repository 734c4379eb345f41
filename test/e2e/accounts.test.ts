import { describe, expect, it } from 'vitest';
import { uniqueName } from '../helpers/app.js';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  registerThroughForm,
  screenshot,
  signIn,
  storedKeys,
} from './browser.js';

const env = centerAndBrowser();

describe('pages: security headers', () => {
  it('every page is HTML under a strict CSP, not frameable, not sniffable', async () => {
    for (const path of [
      '/authorize',
      '/login',
      '/register',
      '/reset_password',
      '/device',
      '/console',
      '/account',
      '/admin',
    ]) {
      const res = await fetch(env.center.baseUrl + path, {
        redirect: 'manual',
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const rule of [
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp, `${path} ${rule}`).toContain(rule);
      }
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
      expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/); // nothing from another site
    }
  });

  it('assets have hashed names and a long cache; unknown assets are 404', async () => {
    const html = await (await fetch(`${env.center.baseUrl}/login`)).text();
    const js = /src="(\/assets\/app\.[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(js).toBeTruthy();
    const res = await fetch(env.center.baseUrl + js);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${env.center.baseUrl}/assets/nope.js`)).status).toBe(
      404,
    );
  });
});

describe('pages: sign up, sign in, account', () => {
  it('registers with an e-mailed code, shows the verified account, signs out and back in', async () => {
    const { context, page } = await newPage(env.browser);
    const username = uniqueName('web');
    await page.goto(`${env.center.baseUrl}/register`);
    await registerThroughForm(page, env.center, username, 'register');
    await page.waitForURL(`${env.center.baseUrl}/account`);
    await expect(page.textContent('#profile-username')).resolves.toBe(username);
    await expect(page.textContent('#email-status')).resolves.toBe('已验证');
    // The token lives in localStorage, never in an address.
    expect(await storedKeys(page)).toHaveLength(1);
    expect(page.url()).not.toMatch(/token|eyJ/);
    await screenshot(page, 'account');

    await page.click('#logout');
    await page.waitForURL(`${env.center.baseUrl}/login`);
    expect(await storedKeys(page)).toHaveLength(0);
    await page.fill('#f-username', username);
    await page.fill('#f-password', 'wrong password!');
    await page.click('form:not([hidden]) button[type=submit]');
    await expect(
      page.waitForSelector('.notice.error:has-text("用户名或密码错误")'),
    ).resolves.toBeTruthy();
    await screenshot(page, 'login-error');
    await signIn(page, env.center.baseUrl, username, 'correct horse battery');
    await context.close();
  });

  it('signs in with an e-mail code', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.click('text=邮箱验证码登录');
    await page.fill('#f-email', user.email);
    await page.click('form:not([hidden]) >> text=发送验证码');
    await page.waitForSelector('text=验证码已发送');
    await page.fill('#f-code', await env.center.smtp.codeFor(user.email));
    await screenshot(page, 'login-by-code');
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForURL(`${env.center.baseUrl}/account`);
    await expect(page.textContent('#profile-username')).resolves.toBe(
      user.username,
    );
    await context.close();
  });

  it('verifies the e-mail and mints a game token with a copy button', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, user.username, user.password);
    await expect(page.textContent('#email-status')).resolves.toBe('未验证');
    await page.click('section:has-text("验证邮箱") >> text=发送验证码');
    await page.waitForSelector('text=验证码已发送');
    await page.fill(
      '#f-verify_code',
      await env.center.smtp.codeFor(user.email),
    );
    await page.click('section:has-text("验证邮箱") button[type=submit]');
    await page.waitForSelector('#email-status:has-text("已验证")');

    await page.click('#mint-game-token');
    const token = await page.inputValue('#game-token textarea');
    await page.click('#game-token button.copy');
    await page.waitForSelector('#game-token button:has-text("已复制")');
    const me = await env.center.get('/api/v1/auth/me', token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      username: user.username,
      app: 'game',
    });
    await screenshot(page, 'account-game-token');
    await context.close();
  });

  it('resets a forgotten password with an e-mailed code', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.click('text=忘记密码');
    await page.waitForURL(/\/reset_password/);
    await page.fill('#f-email', user.email);
    await page.click('text=发送验证码');
    await page.waitForSelector('text=验证码已发送');
    await page.fill('#f-code', await env.center.smtp.codeFor(user.email));
    await page.fill('#f-new_password', 'a brand new secret');
    await page.click('button:has-text("重置密码")');
    await page.waitForSelector('.notice.success:has-text("密码已重置")');
    // Passkeys are not touched by a reset: the page says so and where to remove them.
    await expect(page.textContent('.notice.success')).resolves.toContain(
      '通行密钥不受密码影响',
    );
    await signIn(page, env.center.baseUrl, user.username, 'a brand new secret');
    expect(
      (await env.center.get('/api/v1/auth/me', user.token)).statusCode,
    ).toBe(401);
    await context.close();
  });

  it('signs out everywhere: older tokens of the user stop working', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, user.username, user.password);
    await page.click('#logout-all');
    await page.waitForURL(`${env.center.baseUrl}/login`);
    expect(
      (await env.center.get('/api/v1/auth/me', user.token)).statusCode,
    ).toBe(401);
    await context.close();
  });

  it('renders on a phone-sized screen without horizontal scrolling', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser, PHONE);
    await page.goto(`${env.center.baseUrl}/login`);
    await screenshot(page, 'phone-login');
    await signIn(page, env.center.baseUrl, user.username, user.password);
    const overflow = await horizontalOverflow(page);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-account');
    await context.close();
  });
});
