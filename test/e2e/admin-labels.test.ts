import { describe, expect, it } from 'vitest';
import { createApp } from '../helpers/oauth.js';
import { centerAndBrowser, screenshot, adminPage } from './browser.js';

const env = centerAndBrowser();

describe('e2e: the administration pages speak words, not codes', () => {
  it('the audit log names each action in Chinese, keeps the code beside it, and shows detail as key: value', async () => {
    const owner = await env.center.register();
    await env.center.post('/api/v1/auth/login', {
      username: owner.username,
      password: 'wrong password!',
    });
    const app = await createApp(env.center, owner, {
      display_name: '审计应用',
    });
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    await page.fill('#f-actor', owner.username);
    await page.click('#admin-audit button[type=submit]');
    const created = page.locator('tr', {
      has: page.locator('code', { hasText: /^app\.create$/ }),
    });
    await created.waitFor();
    expect(await created.locator('.audit-action span').textContent()).toBe(
      '创建应用',
    );
    expect(
      await created.locator('.audit-action span').getAttribute('title'),
    ).toBe('app.create');
    expect(await created.locator('.audit-detail').textContent()).toContain(
      'client_type: confidential',
    );
    expect(await created.locator('.audit-detail').textContent()).not.toContain(
      '{',
    );
    expect(await page.textContent('#admin-audit')).toContain('登录失败');
    expect(await page.textContent('#admin-audit')).toContain(app.client_id);
    await screenshot(page, 'admin-audit-labels');
    await context.close();
  });

  it('roles show as 玩家 and 管理员, an unknown role as it is named', async () => {
    const target = await env.center.register();
    const { admin, context, page } = await adminPage(env);
    await env.center.post(
      '/api/v1/auth/admin/users/roles',
      { username: target.username, roles: ['player', 'admin', 'builder'] },
      admin.token,
    );
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.fill('[name=q]', target.username);
    await page.click('button:has-text("搜索")');
    const row = page.locator(`tr[data-username="${target.username}"]`);
    await row.locator('.role-names').waitFor();
    expect(await row.locator('.role-names .badge').allTextContents()).toEqual([
      '玩家',
      '管理员',
      'builder',
    ]);
    await page.click(`tr[data-username="${target.username}"] a`);
    await page.waitForSelector(
      '#user-detail dd:has-text("玩家、管理员、builder")',
    );
    await context.close();
  });
});
