import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApp, authorizeCode } from '../helpers/oauth.js';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
  adminPage,
} from './browser.js';
import { jwtClaims } from '../helpers/jwt.js';

const env = centerAndBrowser();
const A = '/api/v1/auth';
const CB = 'https://good.example.com/cb';

describe('e2e: administration console', () => {
  it('dashboard shows the figures and three charts drawn from the data', async () => {
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin?view=dashboard`);
    await page.waitForSelector('#fig-users .figure-value');
    const users = Number(await page.textContent('#fig-users .figure-value'));
    expect(users).toBe(await env.center.runtime.storage.users.count());
    expect(await page.$$('#chart-new-users svg rect.bar')).toHaveLength(30);
    expect(await page.$$('#chart-sign-ins svg rect.bar')).toHaveLength(30);
    await screenshot(page, 'admin-dashboard');
    await context.close();
  });

  it('user detail: sessions with end buttons (the ended token gets 401), apps and audit trail', async () => {
    const target = await env.center.register();
    await createApp(env.center, target, { display_name: '用户的应用' });
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.fill('[name=q]', target.username);
    await page.click('button:has-text("搜索")');
    await page.click(`tr[data-username="${target.username}"] a`);
    await page.waitForSelector('#user-sessions');
    await page.waitForSelector('#user-detail li:has-text("用户的应用")');
    await page.waitForSelector('#user-detail td:has-text("user.register")');
    await screenshot(page, 'admin-user-detail');
    await page.click(`button[data-session="${jwtClaims(target.token).sid}"]`);
    await page.waitForSelector('.notice.success:has-text("已结束该登录")');
    expect((await env.center.get(`${A}/me`, target.token)).statusCode).toBe(
      401,
    );
    await context.close();
  });

  it('disables an app with a reason: its exchange gets 403 and the owner sees the reason in the console', async () => {
    const owner = await env.center.register();
    const app = await createApp(env.center, owner, {
      display_name: '可疑应用',
    });
    const code = await authorizeCode(env.center, owner, {
      client_id: app.client_id,
      redirect_uri: CB,
      response_type: 'code',
      scope: 'profile',
    });
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin?view=apps`);
    await page.fill('[name=q]', owner.username);
    await page.click('button:has-text("搜索")');
    const row = `#admin-apps tbody[data-query="${owner.username}"] tr[data-client-id="${app.client_id}"]`;
    await page.waitForSelector(row);
    await page.fill(`${row} [name=reason]`, '冒充官方页面');
    await page.click(`${row} [data-action=status]`);
    await page.waitForSelector(`${row} [data-status=disabled]`);
    await screenshot(page, 'admin-apps-disabled');
    const ex = await env.center.post(`${A}/exchange`, {
      client_id: app.client_id,
      client_secret: app.client_secret,
      code,
      redirect_uri: CB,
    });
    expect([ex.statusCode, ex.json()]).toEqual([
      403,
      { ok: false, msg: '该应用已被停用' },
    ]);
    await context.close();

    const { context: ownerContext, page: ownerPage } = await newPage(
      env.browser,
      PHONE,
    );
    await signIn(ownerPage, env.center.baseUrl, owner.username, owner.password);
    await ownerPage.goto(`${env.center.baseUrl}/console`);
    await ownerPage.waitForSelector(
      '#app-suspensions .notice:has-text("冒充官方页面")',
    );
    expect(await horizontalOverflow(ownerPage)).toBeLessThanOrEqual(0);
    await screenshot(ownerPage, 'console-suspended-phone');
    await ownerContext.close();
  });

  it('audit log: filters by target and action, pages, downloads CSV', async () => {
    const target = await env.center.register();
    await env.center.post(`${A}/login`, {
      username: target.username,
      password: 'wrong password!',
    });
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    await page.fill('#f-target', target.username);
    await page.fill('#f-action', 'login.failure');
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.fill(
      '#f-from',
      `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`,
    );
    await page.click('#admin-audit button[type=submit]');
    await page.waitForSelector('#audit-total:has-text("共 1 条")');
    await screenshot(page, 'admin-audit');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#audit-csv'),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8').replace(
      /^\ufeff/,
      '',
    );
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('id,time,actor,ip,action,target,detail');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,login.failure,${target.username},`);
    await context.close();
  });
});
