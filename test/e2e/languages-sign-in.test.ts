import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { centerAndBrowser, newPage, screenshot, signIn } from './browser.js';
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
});
