import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminPage, centerAndBrowser, freePort } from './browser.js';
import { githubProvider } from '../helpers/upstream/github.js';

/** The remove button the invite, sign-in provider and webhook lists share: it asks, then removes. */
const env = centerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'on' });
const A = '/api/v1/auth';

interface AdminList {
  view: string;
  /** The API path that lists the items, and the key of the array in its answer. */
  listPath: string;
  listKey: string;
  /** Adds one item through the API and gives its id and what the question names. */
  add: (token: string) => Promise<{ id: string; named: string }>;
  /** The list item showing the item of `id`, and its remove button within. */
  item: (id: string) => string;
  button: string;
}

async function added(path: string, body: object, token: string) {
  const res = await env.center.post(`${A}${path}`, body, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string };
}

const lists: AdminList[] = [
  {
    view: 'invites',
    listPath: 'admin/invites',
    listKey: 'invites',
    add: async (token) => ({
      id: (await added('/admin/invites', { uses: 2 }, token)).id,
      named: '邀请码',
    }),
    item: (id) => `#invites li[data-invite="${id}"]`,
    button: 'button.danger',
  },
  {
    view: 'providers',
    listPath: 'admin/providers',
    listKey: 'providers',
    add: async (token) => {
      const name = `Forge ${Math.floor(Math.random() * 1e6)}`;
      const id = `forge${Math.floor(Math.random() * 1e6)}`;
      await added(
        '/admin/providers',
        githubProvider({ base: 'http://127.0.0.1:9' }, id, name),
        token,
      );
      return { id, named: name };
    },
    item: (id) => `li.provider[data-provider="${id}"]`,
    // The switch-off button beside it is red too.
    button: 'button.danger:not([data-action=toggle])',
  },
  {
    view: 'webhooks',
    listPath: 'admin/webhooks',
    listKey: 'webhooks',
    add: async (token) => {
      const url = `http://127.0.0.1:${await freePort()}/hooks`;
      const { id } = await added(
        '/admin/webhooks',
        { url, events: ['user.banned'] },
        token,
      );
      return { id, named: url };
    },
    item: (id) => `li.webhook[data-webhook="${id}"]`,
    button: '[data-action=remove]',
  },
];

async function listedIds(list: AdminList, token: string): Promise<string[]> {
  const res = await env.center.get(`${A}/${list.listPath}`, token);
  expect(res.statusCode).toBe(200);
  return (res.json().data[list.listKey] as Array<{ id: string }>).map(
    (i) => i.id,
  );
}

/** Presses `button` and answers the question it asks; gives the question. */
async function pressAndAnswer(
  page: Page,
  button: string,
  accept: boolean,
): Promise<string> {
  const asked = page.waitForEvent('dialog');
  // The click ends only once the question is answered.
  const pressed = page.click(button);
  const dialog = await asked;
  const question = `${dialog.type()}: ${dialog.message()}`;
  await (accept ? dialog.accept() : dialog.dismiss());
  await pressed;
  return question;
}

describe('e2e: the remove button of the admin lists', () => {
  for (const list of lists) {
    it(`${list.view}: dismissing the question keeps the item, accepting removes it`, async () => {
      const { admin, context, page } = await adminPage(env);
      const kept = await list.add(admin.token);
      const gone = await list.add(admin.token);
      const removals: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith(`/${list.listPath}/remove`))
          removals.push(r.postData() ?? '');
      });
      await page.goto(`${env.center.baseUrl}/admin?view=${list.view}`);
      const button = `${list.item(gone.id)} ${list.button}`;
      await page.waitForSelector(button);
      await page.waitForSelector(list.item(kept.id));

      const question = await pressAndAnswer(page, button, false);
      expect(question).toMatch(/^confirm: /);
      expect(question).toContain(gone.named);
      await page.waitForSelector(`${button}:not([disabled])`);
      expect(removals).toEqual([]);
      await page.waitForSelector(list.item(gone.id));
      expect(await listedIds(list, admin.token)).toContain(gone.id);

      await pressAndAnswer(page, button, true);
      await page.waitForSelector(list.item(gone.id), { state: 'detached' });
      expect(removals.map((b) => JSON.parse(b))).toEqual([{ id: gone.id }]);
      await page.waitForSelector(list.item(kept.id));
      const left = await listedIds(list, admin.token);
      expect(left).not.toContain(gone.id);
      expect(left).toContain(kept.id);
      await context.close();
    });
  }
});
