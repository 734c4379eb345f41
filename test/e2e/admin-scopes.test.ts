import { describe, expect, it } from 'vitest';
import { createApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';
import { centerAndBrowser, screenshot, adminPage } from './browser.js';

/** The console's admin API access of an app (docs/api.md §15.3) and switching a webhook back on (§15.2). */
const env = centerAndBrowser();
const A = '/api/v1/auth';

describe('e2e: admin API access and webhooks in the console', () => {
  it('grants an app the ban scope; its bans show in the audit log as the application', async () => {
    const owner = await env.center.register();
    const app = await createApp(env.center, owner, {
      display_name: '游戏服务器',
      grant_types: ['client_credentials'],
    });
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin?view=apps`);
    await page.fill('[name=q]', owner.username);
    await page.click('button:has-text("搜索")');
    const row = `#admin-apps tbody[data-query="${owner.username}"] tr[data-client-id="${app.client_id}"]`;
    await page.waitForSelector(row);
    await page.check(`${row} input[value="admin:users:ban"]`);
    await page.click(`${row} [data-action=admin-scopes]`);
    await page.waitForSelector(`${row} [data-admin-scopes="admin:users:ban"]`);
    await screenshot(page, 'admin-apps-scopes');

    const token = (
      await postForm(
        env.center,
        '/oauth/token',
        { grant_type: 'client_credentials', scope: 'admin:users:ban' },
        { basic: [app.client_id, app.client_secret!] },
      )
    ).json().access_token as string;
    const cheater = await env.center.register();
    expect(
      (
        await env.center.post(
          `${A}/admin/users/ban`,
          { username: cheater.username, banned: true, reason: '外挂' },
          token,
        )
      ).statusCode,
    ).toBe(200);

    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    await page.fill('#f-target', cheater.username);
    await page.fill('#f-action', 'user.ban');
    await page.click('#admin-audit button[type=submit]');
    await page.waitForSelector(
      `#audit-results td[title="app:${app.client_id}"]:has-text("应用 ${app.client_id}")`,
    );
    await screenshot(page, 'admin-audit-app-actor');
    await context.close();
  });

  it('switches back on a webhook switched off for failing, and the dashboard warning goes', async () => {
    const { context, page } = await adminPage(env);
    const { admin } = { admin: await env.center.admin() };
    const added = (
      await env.center.post(
        `${A}/admin/webhooks`,
        { url: 'https://hooks.example.com/down' },
        admin.token,
      )
    ).json().data;
    // Three days of failures, at once: the endpoint is switched off as the delivery loop would.
    expect(
      await env.center.runtime.storage.webhooks.recordResult(
        added.id,
        false,
        Date.now(),
        0,
      ),
    ).toBe(true);
    await page.goto(`${env.center.baseUrl}/admin?view=dashboard`);
    await page.waitForSelector(
      '#webhooks-off:has-text("hooks.example.com/down")',
    );
    await page.goto(`${env.center.baseUrl}/admin?view=webhooks`);
    const item = `li[data-webhook="${added.id}"]`;
    await page.click(`${item} [data-action=enable]`);
    await page.waitForSelector(`${item} [data-action=disable]`);
    await screenshot(page, 'admin-webhook-enabled');
    await page.goto(`${env.center.baseUrl}/admin?view=dashboard`);
    await page.waitForSelector('#fig-users .figure-value');
    expect(await page.$('#webhooks-off')).toBeNull();
    await context.close();
  });
});
