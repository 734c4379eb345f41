import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createApp } from '../helpers/oauth.js';
import { waitFor } from '../helpers/wait.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { freePort } from '../helpers/net.js';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
  type Center,
} from './browser.js';
import type { Browser } from 'playwright-core';

/** The page's own, inside the `$eval` callbacks below (this file is compiled without the DOM library). */
declare const getComputedStyle: (element: unknown) => {
  fontFamily: string;
  paddingTop: string;
};

/** The user list of /admin: the ban dialog, one's own row, the role picker, and the other console views. */
const env = centerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'on' });
const A = '/api/v1/auth';

async function adminAt(
  e: { center: Center; browser: Browser },
  viewport = { width: 1280, height: 860 },
  locale = 'zh-CN',
) {
  const admin = await e.center.admin();
  const { context, page } = await newPage(e.browser, viewport, locale);
  await signIn(page, e.center.baseUrl, admin.username, admin.password);
  return { admin, context, page };
}

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
    const { context, page } = await adminAt(env);
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
    const { context, page } = await adminAt(env);
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
    const { context, page } = await adminAt(
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
    const { admin, context, page } = await adminAt(env);
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
    const { context, page } = await adminAt(env);
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
      const { context, page } = await adminAt(env, PHONE, locale);
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

describe('e2e: the other console views', () => {
  it('offers removing two-step verification only to a user who has it', async () => {
    const plain = await env.center.register();
    const { context, page } = await adminAt(env);
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
    const { context, page } = await adminAt(env);
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
