import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../helpers/app.js';
import {
  freePort,
  launchBrowser,
  newPage,
  screenshot,
  startCenter,
  type Center,
} from './browser.js';
import { startExample, type ExampleServer } from './examples.js';
import { signInOnForm } from './oidc-rp.js';

let center: Center;
let browser: Browser;
let example: ExampleServer;
let developer: TestUser;

beforeAll(async () => {
  [center, browser] = await Promise.all([startCenter(), launchBrowser()]);
  developer = await center.register();
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
  await center?.close();
});

describe('e2e: examples/oidc-web signs in with openid-client against the real server', () => {
  it('sign in (code + PKCE), claims shown, refresh, logout at both ends', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const res = await center.post(
      '/api/v1/auth/apps',
      {
        display_name: 'OIDC 示例网站',
        redirect_uris: [`${url}/callback`],
        post_logout_redirect_uris: [`${url}/logged-out`],
      },
      developer.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const app = res.json().data as { client_id: string; client_secret: string };
    example = await startExample(
      'examples/oidc-web/server.mjs',
      {
        ISSUER: center.baseUrl,
        CLIENT_ID: app.client_id,
        CLIENT_SECRET: app.client_secret,
        APP_URL: url,
      },
      port,
    );

    const person = await center.register();
    const { context, page } = await newPage(browser);
    await page.goto(url);
    await page.click('#login');
    await page.waitForURL((u) => u.pathname === '/login');
    await signInOnForm(page, person);
    await page.getByRole('button', { name: '同意' }).click();
    await page.waitForURL(`${url}/`);
    await expect(page.textContent('#result')).resolves.toBe(
      `signed in as ${person.username}`,
    );
    const claims = JSON.parse((await page.textContent('#claims'))!);
    expect(claims).toMatchObject({
      iss: center.baseUrl,
      sub: String(person.uid),
      aud: app.client_id,
      email: person.email,
    });
    expect(JSON.parse((await page.textContent('#userinfo'))!)).toMatchObject({
      sub: String(person.uid),
      preferred_username: person.username,
    });
    await screenshot(page, 'oidc-example-signed-in');

    await page.click('#refresh');
    await page.waitForSelector('#refresh-count:text("1")');
    await page.click('#refresh');
    await page.waitForSelector('#refresh-count:text("2")');

    await page.click('#logout');
    await page.waitForURL((u) => u.href.startsWith(`${url}/logged-out`));
    await expect(page.textContent('#result')).resolves.toContain(
      '已退出登录（应用与账号中心）',
    );
    await screenshot(page, 'oidc-example-logged-out');
    // The center's session ended too.
    await page.goto(`${center.baseUrl}/account`);
    await page.waitForURL((u) => u.pathname === '/login');
    await context.close();
  });
});
