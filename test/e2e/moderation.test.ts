import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  signIn,
  startCenter,
  type Center,
} from './browser.js';
import { waitFor } from '../helpers/wait.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { LogoutReceiver } from '../helpers/logout-receiver.js';
import { createApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import { jwtClaims } from '../helpers/jwt.js';

/** Bans with a reason and webhooks in the browser (docs/api.md §15). */
let center: Center;
let browser: Browser;
beforeAll(async () => {
  [center, browser] = await Promise.all([
    startCenter({ WEBHOOK_ALLOW_PRIVATE: 'on' }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await center?.close();
});

describe('e2e: moderation', () => {
  it('the banned person reads the reason and the end at sign-in', async () => {
    const admin = await center.admin();
    const u = await center.register();
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await center.post(
      '/api/v1/auth/admin/users/ban',
      { username: u.username, banned: true, reason: '使用外挂', until },
      admin.token,
    );
    const { context, page } = await newPage(browser);
    await page.goto(`${center.baseUrl}/login`);
    await page.fill('#f-username', u.username);
    await page.fill('#f-password', u.password);
    await page.click('form:not([hidden]) button[type=submit]');
    const text = await (
      await page.waitForSelector('.notice.error:has-text("账号已被封禁")')
    ).textContent();
    expect(text).toContain('原因：使用外挂');
    expect(text).toContain('解封时间：');
    await context.close();
  });

  it('in English, the ban and its terms are in English too', async () => {
    const admin = await center.admin();
    const u = await center.register();
    await center.post(
      '/api/v1/auth/admin/users/ban',
      { username: u.username, banned: true, reason: 'cheating' },
      admin.token,
    );
    const { context, page } = await newPage(browser, undefined, 'en-US');
    await page.goto(`${center.baseUrl}/login`);
    await page.fill('#f-username', u.username);
    await page.fill('#f-password', u.password);
    await page.click('form:not([hidden]) button[type=submit]');
    const text = await (
      await page.waitForSelector('.notice.error:has-text("reason: cheating")')
    ).textContent();
    expect(text).toContain('permanently');
    expect(text).not.toMatch(/[\u4e00-\u9fff]/);
    await context.close();
  });

  it('an admin adds a webhook in the console, sees the secret once and the delivery of a test event', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const admin = await center.admin();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, center.baseUrl, admin.username, admin.password);
      await page.goto(`${center.baseUrl}/admin?view=webhooks`);
      await page.fill('#f-url', url);
      await page.fill('#f-description', 'forum');
      await page.click('#webhooks-view form button[type=submit]');
      const secret = await (
        await page.waitForSelector('#webhook-created textarea')
      ).inputValue();
      expect(secret).toMatch(/^whsec_/);
      receiver.trust(secret);
      await page.click('[data-action=test]');
      await waitFor(
        'the test event',
        20_000,
        () => receiver.ofType('webhook.test')[0],
      );
      await page.reload();
      await page.waitForSelector('table.deliveries tr[data-status=delivered]');
      await page.reload();
      expect(await page.textContent('#webhooks-view')).not.toContain('whsec_');
    } finally {
      await context.close();
      await receiver.close();
    }
  });

  it('an admin sees the logout tokens sent to a client and sends one again', async () => {
    const as = await discover(center, center.baseUrl);
    const dev = await center.register();
    const cb = 'https://rp.example.com/cb';
    const forum = await createApp(center, dev, {
      display_name: 'Forum',
      redirect_uris: [cb],
    });
    const receiver = new LogoutReceiver(center.baseUrl, forum.client_id);
    const uri = await receiver.start(as.jwks_uri!);
    expect(
      (
        await center.post(
          '/api/v1/auth/apps/update',
          { client_id: forum.client_id, backchannel_logout_uri: uri },
          dev.token,
        )
      ).statusCode,
    ).toBe(200);
    const user = await center.register();
    const { sid } = jwtClaims(
      (await signInWithCode(center, as, user, forum, cb)).id_token!,
    );
    expect(
      (await center.post('/api/v1/auth/logout', { all: true }, user.token))
        .statusCode,
    ).toBe(200);
    await waitFor(
      'the logout token',
      20_000,
      () => receiver.forSid(sid as string)[0],
    );
    const admin = await center.admin();
    const { context, page } = await newPage(browser, undefined, 'en-US');
    try {
      await signIn(page, center.baseUrl, admin.username, admin.password);
      await page.goto(`${center.baseUrl}/admin?view=webhooks`);
      const row = await page.waitForSelector(
        `#logout-deliveries tr[data-status=delivered]:has-text("${forum.client_id}")`,
      );
      expect(await row.textContent()).toContain(`user ${user.uid}`);
      await (await row.$('[data-action=redeliver]'))!.click();
      await page.waitForSelector('.notice.success:has-text("Queued again")');
      await waitFor(
        'the token sent again',
        20_000,
        () => receiver.forSid(sid as string).length >= 2,
      );
    } finally {
      await context.close();
      await receiver.close();
    }
  });
});
