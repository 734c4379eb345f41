import { describe, expect, it } from 'vitest';
import { createApp } from '../helpers/oauth.js';
import { waitFor } from '../helpers/wait.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { freePort } from '../helpers/net.js';
import {
  adminPage,
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';

/** The page's own, inside the `$eval` callbacks below (this file is compiled without the DOM library). */
declare const getComputedStyle: (element: unknown) => {
  fontFamily: string;
  paddingTop: string;
};

/** The user list of /admin: the ban dialog, one's own row, the role picker, and the other console views. */
const env = centerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'on' });
const A = '/api/v1/auth';

describe('e2e: the other console views', () => {
  it('offers removing two-step verification only to a user who has it', async () => {
    const plain = await env.center.register();
    const { context, page } = await adminPage(env);
    await page.goto(
      `${env.center.baseUrl}/admin?view=user&username=${plain.username}`,
    );
    await page.waitForSelector('#user-second-factor');
    await expect(page.textContent('#user-second-factor')).resolves.toBe('无');
    expect(await page.$('#remove-second-factor')).toBeNull();
    await context.close();
  });

  it('shows admin API access only on apps with the client_credentials grant', async () => {
    const owner = await env.center.register();
    const web = await createApp(env.center, owner, { display_name: '网站' });
    const server = await createApp(env.center, owner, {
      display_name: '游戏服务器',
      grant_types: ['client_credentials'],
    });
    const { context, page } = await adminPage(env);
    await page.goto(
      `${env.center.baseUrl}/admin?view=apps&q=${owner.username}`,
    );
    await page.waitForSelector(
      `tr[data-client-id="${server.client_id}"] input[value="admin:users:ban"]`,
    );
    await page.waitForSelector(
      `tr[data-client-id="${web.client_id}"] [data-admin-scopes-off]`,
    );
    expect(
      await page.$(
        `tr[data-client-id="${web.client_id}"] input[name=admin_scopes]`,
      ),
    ).toBeNull();
    await screenshot(page, 'admin-apps-grants');
    await context.close();
  });

  it('lists invite codes with their ids set as codes, entries apart', async () => {
    const admin = await env.center.admin();
    for (let i = 0; i < 2; i++)
      expect(
        (await env.center.post(`${A}/admin/invites`, { uses: 2 }, admin.token))
          .statusCode,
      ).toBe(200);
    for (const [locale, viewport] of [
      ['zh-CN', { width: 1280, height: 860 }],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(env.browser, viewport, locale);
      await signIn(page, env.center.baseUrl, admin.username, admin.password);
      await page.goto(`${env.center.baseUrl}/admin?view=invites`);
      await expect
        .poll(async () => (await page.$$('#invites li.invite')).length)
        .toBeGreaterThanOrEqual(2);
      const font = await page.$eval(
        '#invites li.invite code',
        (c) => getComputedStyle(c).fontFamily,
      );
      expect(font).toMatch(/monospace/);
      const gap = await page.$$eval(
        '#invites li.invite',
        (items) =>
          items[1]!.getBoundingClientRect().top -
          items[0]!.getBoundingClientRect().bottom,
      );
      const padding = await page.$eval('#invites li.invite', (li) =>
        parseFloat(getComputedStyle(li).paddingTop),
      );
      expect(gap + padding).toBeGreaterThanOrEqual(10);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-invites-${locale}-${viewport.width}`);
      await context.close();
    }
  });

  it('says why a delivery failed: the HTTP answer, or the network error', async () => {
    const receiver = new WebhookReceiver();
    const answering = await receiver.start();
    const closed = `http://127.0.0.1:${await freePort()}/hooks`;
    const admin = await env.center.admin();
    const ids: string[] = [];
    for (const url of [answering, closed]) {
      const added = await env.center.post(
        `${A}/admin/webhooks`,
        { url, events: ['user.banned'] },
        admin.token,
      );
      expect(added.statusCode, added.body).toBe(200);
      ids.push(added.json().data.id);
    }
    const target = await env.center.register();
    expect(
      (
        await env.center.post(
          `${A}/admin/users/ban`,
          { username: target.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    for (const id of ids) {
      await waitFor('a try', 20_000, async () =>
        (
          (
            await env.center.get(
              `${A}/admin/webhooks/deliveries?id=${id}`,
              admin.token,
            )
          ).json().data.deliveries as Array<{ tries: number }>
        ).some((d) => d.tries > 0),
      );
    }
    for (const [locale, viewport] of [
      ['zh-CN', { width: 1280, height: 860 }],
      ['en-US', PHONE],
    ] as const) {
      const { context, page } = await newPage(env.browser, viewport, locale);
      await signIn(page, env.center.baseUrl, admin.username, admin.password);
      await page.goto(`${env.center.baseUrl}/admin?view=webhooks`);
      const answered = `[data-webhook="${ids[0]}"] table.deliveries tr[data-status=pending]`;
      const refused = `[data-webhook="${ids[1]}"] table.deliveries tr[data-status=pending]`;
      await page.waitForSelector(
        `${answered} .delivery-outcome:has-text("HTTP 400")`,
      );
      await page.waitForSelector(
        `${answered} .delivery-outcome:has-text("bad signature")`,
      );
      await page.waitForSelector(
        `${refused} .delivery-outcome:has-text("${locale === 'en-US' ? 'Network error' : '网络错误'}")`,
      );
      await page.waitForSelector(
        `${refused} :has-text("${locale === 'en-US' ? 'next try' : '下次重试'}")`,
      );
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-webhooks-${locale}-${viewport.width}`);
      await context.close();
    }
    await receiver.close();
  });
});
