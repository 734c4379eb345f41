import { describe, expect, it } from 'vitest';
import { createApp } from '../helpers/oauth.js';
import {
  adminPage,
  centerAndBrowser,
  newPage,
  screenshot,
  signIn,
} from './browser.js';

/** The console's Roles tab and the page of an app limited to roles, in both languages. */
const env = centerAndBrowser();
const A = '/api/v1/auth';
const CB = 'https://forum.example.com/cb';

describe('e2e: roles', () => {
  it('adds, lists with members, edits and removes a role in the Roles tab', async () => {
    const { admin, context, page } = await adminPage(env);
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${env.center.baseUrl}/admin?view=roles`);
    await page.waitForSelector('#roles li[data-role=admin]');
    expect(await page.textContent('nav.tabs .tab.active')).toBe('角色');
    await page.fill('#f-role_name', 'moderator');
    await page.fill('#f-role_display_name', '版主');
    await page.fill('#f-role_display_name_en', 'Moderator');
    await page.fill('#f-role_description', '管理论坛');
    await page.click('#role-save');
    const row = '#roles li[data-role=moderator]';
    await page.waitForSelector(`${row} .role-name:has-text("版主")`);

    const member = await env.center.register();
    await env.center.post(
      `${A}/admin/users/roles`,
      { username: member.username, roles: ['player', 'moderator'] },
      admin.token,
    );
    await page.reload();
    await page.waitForSelector(`${row} [data-members="1"]`);
    await page.click(`${row} button:has-text("查看成员")`);
    await page.waitForSelector(`${row} a:has-text("${member.username}")`);
    await screenshot(page, 'admin-roles');

    await page.click(`${row} button:has-text("修改")`);
    expect(await page.inputValue('#f-role_display_name')).toBe('版主');
    await page.fill('#f-role_display_name_en', 'Forum moderator');
    await page.click('#role-save');
    await page.waitForSelector('.notice.success:has-text("moderator")');

    // Built-in roles have no remove button.
    expect(
      await page.isVisible('#roles li[data-role=admin] button.danger'),
    ).toBe(false);
    await page.click(`${row} button.danger`);
    await page.waitForSelector(row, { state: 'detached' });
    const me = await env.center.get(`${A}/me`, member.token);
    expect(me.json().data.roles).toEqual(['player']);
    await context.close();
  });

  it('shows the Roles tab in English', async () => {
    const admin = await env.center.admin();
    const { context, page } = await newPage(env.browser, undefined, 'en-US');
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.goto(`${env.center.baseUrl}/admin?view=roles`);
    await page.waitForSelector('#roles li[data-role=player]');
    expect(await page.textContent('nav.tabs .tab.active')).toBe('Roles');
    expect(await page.textContent('#roles li[data-role=player]')).toContain(
      'Built in',
    );
    await screenshot(page, 'admin-roles-en');
    await context.close();
  });

  it('tells a person without a required role which app refused, in their language', async () => {
    const admin = await env.center.admin();
    await env.center.post(`${A}/admin/roles`, { name: 'staff' }, admin.token);
    const app = await createApp(env.center, admin, {
      display_name: '论坛',
      redirect_uris: [CB],
    });
    await env.center.post(
      `${A}/apps/update`,
      { client_id: app.client_id, required_roles: ['staff'] },
      admin.token,
    );
    const player = await env.center.register();
    const authorize = `${env.center.baseUrl}/oauth/authorize?${new URLSearchParams(
      {
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: CB,
        scope: 'openid roles',
        state: 'xyz',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
    )}`;
    for (const [locale, title, help] of [
      ['zh-CN', '无权使用该应用', '请联系管理员'],
      ['en-US', 'You may not use this application', 'ask an administrator'],
    ] as const) {
      const { context, page } = await newPage(env.browser, undefined, locale);
      await signIn(page, env.center.baseUrl, player.username, player.password);
      await page.goto(authorize);
      expect(await page.textContent('h1')).toBe(title);
      expect(await page.textContent('main')).toContain('“论坛”');
      expect(await page.textContent('main')).toContain(help);
      await screenshot(page, `oidc-role-refused-${locale}`);
      // The way back tells the app only that access was denied.
      await page.route(`${CB}**`, (route) =>
        route.fulfill({ status: 200, body: 'callback' }),
      );
      await page.click('#back-to-app');
      await page.waitForURL(`${CB}**`);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('xyz');
      await context.close();
    }
  });
});
