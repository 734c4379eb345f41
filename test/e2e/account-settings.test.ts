import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';
import { jwtClaims } from '../helpers/jwt.js';

const env = centerAndBrowser();
/** Waits until the sessions list shows `n` sessions (polled from here: the page's CSP forbids eval). */
const sessionRows = (page: Page, n: number) =>
  expect
    .poll(() => page.locator('#sessions li.session').count(), {
      timeout: 10_000,
    })
    .toBe(n);
const A = '/api/v1/auth';

async function freshUser() {
  const u = await env.center.register({ username: uniqueName('acct') });
  return u;
}

const loginElsewhere = async (username: string, password: string) =>
  (
    await env.center.post(`${A}/login`, { username, password }, undefined, {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0',
    })
  ).json().access_token as string;

describe('account page: self-service (phone)', () => {
  it('renames, lists sessions, ends one (its token gets 401), ends all others', async () => {
    const u = await freshUser();
    const other = await loginElsewhere(u.username, u.password);
    const third = await loginElsewhere(u.username, u.password);
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.fill('#f-display_name', '新的昵称');
    await page.click('#edit-name button[type=submit]');
    await page.waitForSelector('#edit-name .notice.success');
    await expect(page.textContent('#profile-display-name')).resolves.toBe(
      '新的昵称',
    );

    // The registration token, two sign-ins elsewhere and this page: four sessions.
    await sessionRows(page, 4);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'account-sessions-phone');
    await page.click(`button[data-session="${jwtClaims(other).sid}"]`);
    await page.waitForSelector('#session-list .notice.success');
    await sessionRows(page, 3);
    expect((await env.center.get(`${A}/me`, other)).statusCode).toBe(401);
    expect((await env.center.get(`${A}/me`, third)).statusCode).toBe(200);

    await page.click('#end-other-sessions');
    await sessionRows(page, 1);
    expect((await env.center.get(`${A}/me`, third)).statusCode).toBe(401);
    expect((await env.center.get(`${A}/me`, u.token)).statusCode).toBe(401);
    await screenshot(page, 'account-sessions-ended-phone');
    await context.close();
  });

  it('changes the password: the other session is gone, this page stays signed in', async () => {
    const u = await freshUser();
    const other = await loginElsewhere(u.username, u.password);
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.fill('#f-current_password', u.password);
    await page.fill('#f-new_password', 'a brand new password');
    expect(await page.isChecked('#f-end_other_sessions')).toBe(true);
    await screenshot(page, 'account-change-password-phone');
    await page.click('#change-password button[type=submit]');
    await page.waitForSelector('#change-password .notice.success');
    expect((await env.center.get(`${A}/me`, other)).statusCode).toBe(401);
    await page.reload();
    await expect(page.textContent('#profile-username')).resolves.toBe(
      u.username,
    );
    await sessionRows(page, 1);
    expect(
      (
        await env.center.post(`${A}/login`, {
          username: u.username,
          password: 'a brand new password',
        })
      ).statusCode,
    ).toBe(200);
    await context.close();
  });

  it('a wrong current password is reported on the form', async () => {
    const u = await freshUser();
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.fill('#f-current_password', 'not my password');
    await page.fill('#f-new_password', 'a brand new password');
    await page.click('#change-password button[type=submit]');
    await page.waitForSelector(
      '#change-password .notice.error:has-text("当前密码或两步验证码不正确")',
    );
    await context.close();
  });

  it('changes the e-mail with the code from the SMTP sink; the old address gets a notice', async () => {
    const u = await freshUser();
    const next = `${uniqueName('moved')}@example.net`;
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    const before = env.center.smtp.countTo(u.email);
    await page.fill('#f-new_email', next);
    // The code is sent only with the current password.
    await page.click('#send-change-code');
    await page.waitForSelector(
      '#change-email .notice.error:has-text("当前密码或两步验证码不正确")',
    );
    await env.center.mailSent();
    expect(env.center.smtp.countTo(next)).toBe(0);
    await page.fill('#f-change_email_password', u.password);
    await page.click('#send-change-code');
    await page.waitForSelector('#change-email .notice.success');
    await page.fill(
      '#f-change_email_code',
      await env.center.smtp.codeFor(next),
    );
    await screenshot(page, 'account-change-email-phone');
    await page.click('#change-email button[type=submit]');
    await page.waitForSelector(
      '#change-email .notice.success:has-text("邮箱已更换")',
    );
    await expect(page.textContent('#profile-email')).resolves.toBe(next);
    await expect(page.textContent('#email-status')).resolves.toBe('已验证');
    await env.center.mailSent();
    expect(env.center.smtp.countTo(u.email)).toBeGreaterThan(before);
    await context.close();
  });

  it('deletes the account with the password and lands on the sign-in page', async () => {
    const u = await freshUser();
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.click('#delete-section summary');
    await page.fill('#f-delete_password', u.password);
    page.once('dialog', (d) => void d.accept());
    await screenshot(page, 'account-delete-phone');
    await page.click('#delete-account');
    await page.waitForURL(/\/login/);
    expect(
      (
        await env.center.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(401);
    await context.close();
  });
});
