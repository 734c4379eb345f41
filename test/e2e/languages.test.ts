import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';
import {
  discover,
  landed,
  newAttempt,
  registerClient,
  startRelyingPartyPages,
  stopRelyingPartyPages,
} from './oidc-rp.js';

/** Each page in English for a browser that asks for it, and the header switch that remembers a choice. */
const env = centerAndBrowser();
const EN = 'en-US';
beforeAll(startRelyingPartyPages);
afterAll(stopRelyingPartyPages);

/** The Chinese words of the page's text, besides the site name and the switch back to 中文. */
async function chineseOn(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>(
    `[...document.querySelectorAll('main, header nav')].map((e) => e.textContent).join(' ')`,
  );
  return [...text.matchAll(/[\u4e00-\u9fff]+/g)].map((m) => m[0]);
}

describe('e2e: the pages in English', () => {
  it('the sign-in page, its tabs and its errors', async () => {
    const { context, page } = await newPage(env.browser, undefined, EN);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expect(page.title()).resolves.toBe('Sign in - Account Center');
    expect(await page.textContent('main h1')).toBe('Sign in');
    expect(await page.textContent('label[for=f-username]')).toBe(
      'Username or e-mail',
    );
    await page.fill('#f-username', 'nobody_here');
    await page.fill('#f-password', 'a wrong password');
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForSelector('text=Wrong username or password');
    await page.click('button:has-text("E-mail code")');
    expect(await page.isVisible('button:has-text("Send code")')).toBe(true);
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-login');
    await context.close();
  });

  it('the consent page, with what each scope means', async () => {
    const developer = await env.center.register();
    const rp = await registerClient(
      env.center,
      developer,
      'client_secret_basic',
    );
    const config = await discover(env.center, rp, 'client_secret_basic');
    const person = await env.center.register();
    const { context, page } = await newPage(env.browser, undefined, EN);
    const attempt = await newAttempt(config, { scope: 'openid profile email' });
    await page.goto(attempt.url.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByLabel('Username or e-mail').fill(person.username);
    await page.getByLabel('Password').fill(person.password);
    await page
      .getByRole('button', { name: 'Sign in', exact: true })
      .first()
      .click();
    await page.waitForURL((u) => u.pathname === '/authorize');
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await expect(page.title()).resolves.toBe('Authorize - Account Center');
    expect(await page.textContent('main')).toContain(
      'wants to sign you in with your account',
    );
    expect(await page.textContent('.scopes')).toContain(
      'Read your e-mail address',
    );
    expect(await page.textContent('.scopes')).toContain('Confirm who you are');
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-consent');
    await page.getByRole('button', { name: 'Deny' }).click();
    expect((await landed(page)).searchParams.get('error')).toBe(
      'access_denied',
    );
    await context.close();
  });

  it('the device page: code, who asks, the warning and the answer', async () => {
    const started = (
      await env.center.post('/api/v1/auth/device/start', {})
    ).json().data;
    const person = await env.center.register();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, person.username, person.password);
    await page.goto(`${env.center.baseUrl}/device`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Device sign-in');
    await page.fill('#f-user_code', '12');
    await page.click('#device-next');
    await page.waitForSelector(
      'text=Enter the 6-digit code shown on the device',
    );
    await page.fill('#f-user_code', started.user_code);
    await page.press('#f-user_code', 'Enter');
    await page.locator('#device-request').waitFor();
    expect(await page.textContent('#device-request')).toContain(
      'This is a sign-in to Account Center itself',
    );
    expect(await page.textContent('#device-warning')).toContain(
      'Only click “Confirm sign-in”',
    );
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-device');
    await page.click('#approve');
    await page.waitForSelector('#device-result:not([hidden])');
    expect(await page.textContent('#device-result')).toContain(
      `may now sign in as ${person.username}`,
    );
    await context.close();
  });

  it('the account page, its sections and the header menu', async () => {
    const person = await env.center.register();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, person.username, person.password);
    await page.waitForSelector('#session-list li');
    await expect(page.title()).resolves.toBe('My account - Account Center');
    expect(await page.textContent('#account-nav')).toContain(
      'Signed-in devices',
    );
    expect(await page.textContent('#profile')).toContain(
      'This sign-in is valid until',
    );
    expect(await page.textContent('#profile-roles')).toBe('Player');
    await page.waitForSelector('#sign-in-list .sign-in-method');
    expect(await page.textContent('#sign-in-history h2')).toBe(
      'Sign-in history',
    );
    expect(await page.textContent('#sign-in-list thead')).toBe(
      'TimeMethodIPBrowser',
    );
    expect(await page.textContent('#sign-in-list .sign-in-method')).toBe(
      'Password',
    );
    expect(
      await page.textContent(
        'label[for=f-sign_in_notice], #sign-in-history label.check',
      ),
    ).toContain('E-mail me when');
    await page.waitForSelector('#two-factor button#totp-setup');
    expect(await page.textContent('#totp-setup')).toBe(
      'Turn on two-step verification',
    );
    await page.fill('#f-display_name', '');
    await page.click('#edit-name button[type=submit]');
    await page.waitForSelector('#edit-name .notice.error:not([hidden])');
    expect(await page.textContent('#edit-name .notice.error')).toBe(
      'Invalid value: Display name',
    );
    await page.click('#user-menu summary');
    expect(await page.textContent('#user-menu-items')).toContain(
      'Developer console',
    );
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-account');
    await context.close();
  });

  it('the developer console: the form, its errors and an app card', async () => {
    const person = await env.center.register();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, person.username, person.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Developer console');
    await page.click('#create-app summary');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://wiki.example/cb',
    );
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(
      '#create-app .field-error:has-text("App name is required")',
    );
    await page.fill('#create-app [name=display_name]', 'Wiki');
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector('#new-secret');
    expect(await page.textContent('#new-secret')).toContain(
      'shown this once only',
    );
    expect(await page.textContent('main')).toContain(
      'Authorization code (authorization_code)',
    );
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-console');
    await context.close();
  });

  it('the administration pages: users, roles and the audit log in words', async () => {
    const admin = await env.center.admin();
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.waitForSelector('[data-role=admin]');
    expect(await page.textContent('main h1')).toBe('User administration');
    expect(await page.textContent('[data-role=admin]')).toBe('Administrator');
    expect(await chineseOn(page)).toEqual([]);
    await screenshot(page, 'en-admin');
    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    expect(await page.textContent('main')).toContain('Signed in');
    expect(await chineseOn(page)).toEqual([]);
    await page.goto(`${env.center.baseUrl}/admin?view=dashboard`);
    await page.waitForSelector('#fig-users');
    expect(await page.textContent('#fig-users')).toContain('Users');
    expect(await chineseOn(page)).toEqual([]);
    await context.close();
  });

  it('the administration pages: invite codes and webhooks', async () => {
    const admin = await env.center.admin();
    await env.center.runtime.services.abuse.invites.create({ uses: 2 }, 'test');
    const hook = await env.center.post(
      '/api/v1/auth/admin/webhooks',
      {
        url: 'https://forum.example.com/hooks/center',
        events: ['user.banned', 'user.unbanned'],
      },
      admin.token,
    );
    expect(hook.statusCode, hook.body).toBe(200);
    const { context, page } = await newPage(env.browser, undefined, EN);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/admin?view=invites`);
    await page.waitForSelector('#invites li.invite');
    expect(await page.textContent('#invites li.invite')).toContain('2 left');
    expect(await page.textContent('#invites li.invite')).toContain(
      'Used 0 of 2 · never expires · made by test at',
    );
    expect(await page.textContent('#invites-view')).toContain(
      'Make an invite code',
    );
    expect(await chineseOn(page)).toEqual([]);
    await page.goto(`${env.center.baseUrl}/admin?view=webhooks`);
    await page.waitForSelector('#webhooks li.webhook');
    expect(await page.textContent('#webhooks li.webhook')).toContain(
      'No description · Events: user.banned, user.unbanned',
    );
    expect(await page.textContent('#webhooks li.webhook')).toContain(
      'No deliveries yet',
    );
    expect(await page.textContent('#webhooks-view h2')).toBe('Add a webhook');
    expect(await chineseOn(page)).toEqual([]);
    await context.close();
  });

  it('the not-found page', async () => {
    const { context, page } = await newPage(env.browser, undefined, EN);
    await page.goto(`${env.center.baseUrl}/no-such-page`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Page not found');
    expect(await page.textContent('main')).toContain('Back to the home page');
    await context.close();
  });

  it('the switch in the header changes the language and keeps it', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('登录');
    expect(await page.textContent('#lang-switch')).toBe('English');
    await page.click('#lang-switch');
    await page.waitForFunction(
      "document.documentElement.lang === 'en' && document.body.classList.contains('ready')",
    );
    expect(await page.textContent('main h1')).toBe('Sign in');
    await page.goto(`${env.center.baseUrl}/register`);
    await page.waitForSelector('body.ready');
    expect(await page.textContent('main h1')).toBe('Create an account');
    expect(await page.textContent('#lang-switch')).toBe('中文');
    await page.click('#lang-switch');
    await page.waitForFunction(
      "document.documentElement.lang === 'zh-CN' && document.body.classList.contains('ready')",
    );
    expect(await page.textContent('main h1')).toBe('注册账号');
    await context.close();
  });

  it('the sign-in page at phone width has room for the switch', async () => {
    const { context, page } = await newPage(env.browser, PHONE, EN);
    await page.goto(`${env.center.baseUrl}/login`);
    await page.waitForSelector('body.ready');
    expect(await page.isVisible('#lang-switch')).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'en-login-phone');
    await context.close();
  });
});
