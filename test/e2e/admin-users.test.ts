import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  adminPage,
  centerAndBrowser,
  horizontalOverflow,
  PHONE,
  screenshot,
} from './browser.js';

/** The page's own, inside the `$eval` callbacks below (this file is compiled without the DOM library). */
declare const getComputedStyle: (element: unknown) => {
  fontFamily: string;
  paddingTop: string;
};

/** The user list of /admin: the ban dialog, one's own row, the role picker, and the other console views. */
const env = centerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'on' });
const A = '/api/v1/auth';

async function findRow(page: Page, username: string): Promise<string> {
  await page.goto(`${env.center.baseUrl}/admin`);
  await page.fill('[name=q]', username);
  await page.press('[name=q]', 'Enter');
  await expect.poll(async () => (await page.$$('tbody tr')).length).toBe(1);
  const row = `tr[data-username="${username}"]`;
  await page.waitForSelector(row);
  return row;
}

const stored = (username: string) =>
  env.center.runtime.storage.users.findByUsername(username);

describe('e2e: banning from the user list', () => {
  it('Cancel, Escape and a click beside the dialog ban nobody', async () => {
    const target = await env.center.register();
    const { context, page } = await adminPage(env);
    const row = await findRow(page, target.username);
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/admin/users/ban')) requests.push(r.url());
    });

    await page.click(`${row} [data-action=ban]`);
    await page.fill('#ban-dialog [name=ban_reason]', '刷屏');
    await screenshot(page, 'admin-ban-dialog');
    await page.click('#ban-dialog [data-action=cancel]');
    await page.waitForSelector('#ban-dialog', { state: 'detached' });

    await page.click(`${row} [data-action=ban]`);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#ban-dialog', { state: 'detached' });

    await page.click(`${row} [data-action=ban]`);
    await page.mouse.click(5, 5);
    await page.waitForSelector('#ban-dialog', { state: 'detached' });

    expect(requests).toEqual([]);
    expect(await page.getAttribute(`${row} [data-status]`, 'data-status')).toBe(
      'active',
    );
    expect((await stored(target.username))?.banned).toBe(false);
    expect((await env.center.get(`${A}/me`, target.token)).statusCode).toBe(
      200,
    );
    await context.close();
  });

  it('bans with a reason for a number of days, or until a date; a past date is pointed out', async () => {
    const target = await env.center.register();
    const { context, page } = await adminPage(env);
    const row = await findRow(page, target.username);
    await page.click(`${row} [data-action=ban]`);
    await page.fill('#ban-dialog [name=ban_reason]', '使用外挂');
    await page.fill('#ban-dialog [name=ban_amount]', '3');
    const before = Date.now();
    await page.click('#ban-dialog [data-action=confirm]');
    await page.waitForSelector(`${row} [data-status=banned]`);
    const banned = await stored(target.username);
    expect(banned).toMatchObject({ banned: true, banReason: '使用外挂' });
    expect(banned!.bannedUntil! - before).toBeGreaterThan(
      3 * 86_400_000 - 60_000,
    );
    expect(banned!.bannedUntil! - Date.now()).toBeLessThanOrEqual(
      3 * 86_400_000,
    );

    const other = await env.center.register();
    const otherRow = await findRow(page, other.username);
    await page.click(`${otherRow} [data-action=ban]`);
    await page.fill('#ban-dialog [name=ban_until]', '2001-01-01T10:00');
    await page.click('#ban-dialog [data-action=confirm]');
    await page.waitForSelector('#ban-dialog .notice.error:has-text("将来")');
    expect((await stored(other.username))?.banned).toBe(false);
    await page.fill('#ban-dialog [name=ban_until]', '2099-06-01T10:00');
    await page.click('#ban-dialog [data-action=confirm]');
    await page.waitForSelector(`${otherRow} [data-status=banned]`);
    expect((await stored(other.username))?.bannedUntil).toBe(
      new Date('2099-06-01T10:00').getTime(),
    );
    // Left on "never": a permanent ban, and no reason when none was typed.
    const third = await env.center.register();
    const thirdRow = await findRow(page, third.username);
    await page.click(`${thirdRow} [data-action=ban]`);
    await page.click('#ban-dialog [data-action=confirm]');
    await page.waitForSelector(`${thirdRow} [data-status=banned]`);
    expect(await stored(third.username)).toMatchObject({
      banned: true,
      banReason: '',
      bannedUntil: null,
    });
    await context.close();
  });

  it('asks the same in English', async () => {
    const target = await env.center.register();
    const { context, page } = await adminPage(
      env,
      { width: 1280, height: 860 },
      'en-US',
    );
    const row = await findRow(page, target.username);
    await expect(page.textContent('nav.tabs a.tab.active')).resolves.toBe(
      'Users',
    );
    await page.click(`${row} [data-action=ban]`);
    await expect(page.textContent('#ban-dialog h2')).resolves.toBe(
      `Ban ${target.username}`,
    );
    await expect(
      page.textContent('#ban-dialog [data-action=cancel]'),
    ).resolves.toBe('Cancel');
    await expect(page.textContent('#ban-dialog legend')).resolves.toBe('Ends');
    await screenshot(page, 'admin-ban-dialog-en');
    await page.click('#ban-dialog [data-action=cancel]');
    expect((await stored(target.username))?.banned).toBe(false);
    await context.close();
  });
});

describe("e2e: one's own row and the role picker", () => {
  it('an administrator cannot ban or demote themselves from the list', async () => {
    const { admin, context, page } = await adminPage(env);
    const row = await findRow(page, admin.username);
    expect(await page.$(`${row} [data-action=ban]`)).toBeNull();
    await page.waitForSelector(
      `${row} #admin-self-note:has-text("不能封禁自己")`,
    );
    await page.click(`${row} [data-action=roles]`);
    const own = '#roles-dialog input[value=admin]';
    await page.waitForSelector(own);
    expect(await page.isChecked(own)).toBe(true);
    expect(await page.isDisabled(own)).toBe(true);
    await screenshot(page, 'admin-roles-self');
    await page.click('#roles-dialog [data-action=confirm]');
    await page.waitForSelector('.notice.success');
    expect((await stored(admin.username))?.roles).toEqual(['player', 'admin']);
    await context.close();
  });

  it('picks among the roles in use, adds a new one, and Cancel changes nothing', async () => {
    const mod = await env.center.register();
    const admin0 = await env.center.admin();
    expect(
      (
        await env.center.post(
          `${A}/admin/users/roles`,
          { username: mod.username, roles: ['player', 'moderator'] },
          admin0.token,
        )
      ).statusCode,
    ).toBe(200);
    const target = await env.center.register();
    const { context, page } = await adminPage(env);
    const row = await findRow(page, target.username);
    await page.click(`${row} [data-action=roles]`);
    for (const role of ['player', 'admin', 'moderator'])
      await page.waitForSelector(`#roles-dialog [data-role=${role}] input`);
    expect(await page.isChecked('#roles-dialog input[value=player]')).toBe(
      true,
    );
    expect(await page.isChecked('#roles-dialog input[value=moderator]')).toBe(
      false,
    );
    await page.check('#roles-dialog input[value=moderator]');
    await page.click('#roles-dialog [data-action=cancel]');
    await page.waitForSelector('#roles-dialog', { state: 'detached' });
    expect((await stored(target.username))?.roles).toEqual(['player']);

    await page.click(`${row} [data-action=roles]`);
    await page.check('#roles-dialog input[value=moderator]');
    await page.fill('#roles-dialog [name=new_role]', 'Not A Role!');
    await page.click('#roles-dialog [data-action=add-role]');
    await page.waitForSelector('#new-role-hint.error');
    await page.fill('#roles-dialog [name=new_role]', 'builder');
    await page.press('#roles-dialog [name=new_role]', 'Enter');
    await page.waitForSelector(
      '#roles-dialog [data-role=builder] input:checked',
    );
    await screenshot(page, 'admin-roles-picker');
    await page.click('#roles-dialog [data-action=confirm]');
    await page.waitForSelector(`${row} [data-role=builder]`);
    expect((await stored(target.username))?.roles).toEqual([
      'player',
      'moderator',
      'builder',
    ]);
    await context.close();
  });

  it('the list, the dialogs and the roles fit a phone in both languages', async () => {
    const target = await env.center.register();
    for (const locale of ['zh-CN', 'en-US']) {
      const { context, page } = await adminPage(env, PHONE, locale);
      const row = await findRow(page, target.username);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-users-phone-${locale}`);
      await page.click(`${row} [data-action=ban]`);
      await screenshot(page, `admin-ban-dialog-phone-${locale}`);
      await page.keyboard.press('Escape');
      await page.click(`${row} [data-action=roles]`);
      await page.waitForSelector('#roles-dialog input[value=player]');
      await screenshot(page, `admin-roles-phone-${locale}`);
      await page.keyboard.press('Escape');
      await context.close();
    }
  });
});
