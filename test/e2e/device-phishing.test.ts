import { describe, expect, it } from 'vitest';
import {
  centerAndBrowser,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';

/**
 * One-click device phishing (RFC 8628 §5.4): an attacker starts a device login and sends the
 * victim `verification_uri_complete`. The page must say who asks and what the device gets,
 * warn, and still wait for an explicit click. Also: `next` never leaves this origin.
 */
const env = centerAndBrowser();

describe('e2e: the device page shows who asks before any approval', () => {
  it('a pre-filled link for the center itself: full access spelled out, start time, warning, nothing approved without the click', async () => {
    const started = (
      await env.center.post('/api/v1/auth/device/start', {})
    ).json().data;
    const victim = await env.center.register();
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, victim.username, victim.password);
    await page.goto(started.verification_uri_complete);
    const request = page.locator('#device-request');
    await request.waitFor();
    expect(await request.textContent()).toContain('「账号中心」请求登录');
    expect(await page.textContent('#device-client-id')).toBe('account-center');
    expect(await request.textContent()).toContain('完全访问权限');
    expect(await page.textContent('#device-started')).toMatch(
      /请求发起于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/,
    );
    expect(await page.textContent('#device-warning')).toContain(
      '自己面前的设备',
    );
    await screenshot(page, 'device-request-first-party');
    // Opening the link decided nothing: the attacker's poll still waits.
    const poll = await env.center.post('/api/v1/auth/device/poll', {
      device_code: started.device_code,
    });
    expect(poll.json().error).toBe('authorization_pending');
    await page.click('#deny');
    await page.waitForSelector('#device-result:has-text("已拒绝")');
    await context.close();
  });

  it('a typed code: Enter shows the request and nothing else; one click on 确认登录 confirms', async () => {
    const dev = await env.center.register();
    const created = await env.center.post(
      '/api/v1/auth/apps',
      {
        display_name: '像素农场',
        redirect_uris: ['com.example.farm:/cb'],
        client_type: 'public',
      },
      dev.token,
    );
    const clientId = created.json().data.client_id as string;
    const started = (
      await env.center.post('/api/v1/auth/device/start', {
        client_id: clientId,
      })
    ).json().data;
    const player = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, player.username, player.password);
    await page.goto(`${env.center.baseUrl}/device`);
    // Before the lookup there is nothing to confirm.
    expect(await page.isVisible('#approve')).toBe(false);
    await page.fill('#f-user_code', started.user_code);
    await page.press('#f-user_code', 'Enter');
    await page.waitForSelector('#device-request:has-text("像素农场")');
    expect(await page.textContent('#device-client-id')).toBe(clientId);
    expect(await page.textContent('#device-request')).not.toContain(
      '完全访问权限',
    );
    expect(await page.textContent('#device-warning')).toContain(
      '自己面前的设备',
    );
    expect(
      (
        await env.center.post('/api/v1/auth/device/poll', {
          device_code: started.device_code,
        })
      ).json().error,
    ).toBe('authorization_pending');
    await screenshot(page, 'device-request-third-party');
    await page.click('#approve');
    await page.waitForSelector('#device-result:has-text("像素农场")');
    const token = await env.center.post('/api/v1/auth/device/poll', {
      device_code: started.device_code,
    });
    expect(token.statusCode).toBe(200);
    await context.close();
  });
});

describe('e2e: sign-in pages follow `next` only on this origin', () => {
  it.each([
    '/.//evil.example/x',
    '/..//evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    'https://evil.example/x',
  ])('a signed-in user at /login?next=%s lands on /account', async (next) => {
    const u = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, u.username, u.password);
    await page.goto(
      `${env.center.baseUrl}/login?next=${encodeURIComponent(next)}`,
    );
    await page.waitForURL((url) => url.pathname === '/account');
    expect(new URL(page.url()).origin).toBe(env.center.baseUrl);
    // And through the account switch, the phishing variant.
    await page.goto(
      `${env.center.baseUrl}/login?switch=1&next=${encodeURIComponent(next)}`,
    );
    await page.fill('#f-username', u.username);
    await page.fill('#f-password', u.password);
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForURL((url) => url.pathname === '/account');
    expect(new URL(page.url()).origin).toBe(env.center.baseUrl);
    await context.close();
  });
});
