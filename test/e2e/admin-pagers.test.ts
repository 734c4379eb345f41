import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPage, centerAndBrowser } from './browser.js';

/** The previous and next buttons the admin user search and the audit log share. */
const env = centerAndBrowser();
const A = '/api/v1/auth';
/** More than two pages of users (20 a page) and more than one of the audit log (50 a page). */
const USERS = 51;
const prefix = `pager${Math.floor(Math.random() * 1e6)}`;

beforeAll(async () => {
  for (let n = 0; n < USERS; n += 1)
    await env.center.register({ username: `${prefix}_${n}` });
}, 60_000);

const PAGER = '.pager';

const PRESS = { prev: '上一页', next: '下一页' } as const;

/**
 * Presses the pager's previous or next button (or none), then waits for its words to read `words`
 * and checks which of its buttons can be pressed, `[prev, next]`.
 */
async function turnTo(
  page: Page,
  press: keyof typeof PRESS | null,
  words: string,
  enabled: [boolean, boolean],
): Promise<void> {
  if (press) await page.click(`${PAGER} button:has-text("${PRESS[press]}")`);
  await page.waitForSelector(`${PAGER} span:has-text("${words}")`);
  expect([
    await page.isEnabled(`${PAGER} button:has-text("${PRESS.prev}")`),
    await page.isEnabled(`${PAGER} button:has-text("${PRESS.next}")`),
  ]).toEqual(enabled);
}

/** The given cell of every row of the table in `within`. */
function cells(page: Page, within: string, cell: string): Promise<string[]> {
  return page.$$eval(`${within} tbody tr ${cell}`, (found) =>
    found.map((c) => (c as unknown as { textContent: string }).textContent),
  );
}

describe('e2e: the pager of the admin lists', () => {
  it('user search: next goes on a page, previous back, each disabled at its end', async () => {
    const { context, page } = await adminPage(env);
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.fill('[name=q]', prefix);
    await page.press('[name=q]', 'Enter');
    const rows = () => cells(page, 'table.users', 'td:first-child');
    const total = `共 ${USERS} 人`;

    await turnTo(page, null, `第 1 / 3 页，${total}`, [false, true]);
    const first = await rows();
    expect(first).toHaveLength(20);

    await turnTo(page, 'next', `第 2 / 3 页，${total}`, [true, true]);
    const second = await rows();
    expect(second).toHaveLength(20);
    expect(second.filter((r) => first.includes(r))).toEqual([]);

    await turnTo(page, 'next', `第 3 / 3 页，${total}`, [true, false]);
    const third = await rows();
    expect(third).toHaveLength(USERS - 40);
    expect(
      new Set([...first, ...second, ...third].map((r) => r.trim())).size,
    ).toBe(USERS);

    await turnTo(page, 'prev', `第 2 / 3 页，${total}`, [true, true]);
    expect(await rows()).toEqual(second);
    await turnTo(page, 'prev', `第 1 / 3 页，${total}`, [false, true]);
    expect(await rows()).toEqual(first);
    await context.close();
  });

  it('audit log: next goes on a page, previous back, each disabled at its end', async () => {
    const { admin, context, page } = await adminPage(env);
    const listed = await env.center.get(
      `${A}/admin/audit?action=user.register&page=1`,
      admin.token,
    );
    expect(listed.statusCode).toBe(200);
    const total = listed.json().data.total as number;
    expect(total).toBeGreaterThan(50);
    expect(total).toBeLessThanOrEqual(100);
    const count = `共 ${total} 条`;

    await page.goto(`${env.center.baseUrl}/admin?view=audit`);
    await page.waitForSelector('#audit-total');
    await page.fill('#f-action', 'user.register');
    await page.click('#admin-audit button[type=submit]');
    const targets = () => cells(page, '#audit-results', 'td:nth-child(4)');

    await turnTo(page, null, `第 1 / 2 页，${count}`, [false, true]);
    const first = await targets();
    expect(first).toHaveLength(50);

    await turnTo(page, 'next', `第 2 / 2 页，${count}`, [true, false]);
    const second = await targets();
    expect(second).toHaveLength(total - 50);
    expect(second.filter((r) => first.includes(r))).toEqual([]);

    await turnTo(page, 'prev', `第 1 / 2 页，${count}`, [false, true]);
    expect(await targets()).toEqual(first);
    await context.close();
  });
});
