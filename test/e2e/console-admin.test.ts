import { describe, expect, it } from 'vitest';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';

const env = centerAndBrowser();

const card = (clientId: string) => `article.app[data-client-id="${clientId}"]`;

describe('e2e: developer console', () => {
  it('creates an app (secret shown once), edits it, rotates the secret, disables and enables it', async () => {
    const dev = await env.center.register();
    const { context, page } = await newPage(env.browser);
    page.on('dialog', (d) => void d.accept());
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.click('#user-menu summary');
    await page.click('#user-menu >> text=开发者控制台');
    await page.waitForSelector('text=还没有应用。');

    await page.click('#create-app summary');
    await page.fill('#create-app [name=display_name]', '我的网站');
    await page.fill('#create-app [name=redirect_uris]', 'ftp://bad.example/cb');
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(
      '#create-app .notice.error:has-text("回调地址格式不正确")',
    );

    await page.fill('#create-app [name=client_id]', 'my-site');
    await page.fill('#create-app [name=homepage]', 'https://my-site.example');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://my-site.example/callback\nhttp://localhost:8080/cb',
    );
    await page.fill('#create-app [name=scopes]', 'profile email');
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(card('my-site'));
    const secret = await page.inputValue('#new-secret input');
    expect(secret.length).toBeGreaterThanOrEqual(43);
    await screenshot(page, 'console-created');

    // Listing never shows the secret again.
    await page.reload();
    await page.waitForSelector(card('my-site'));
    expect(await page.$('#new-secret')).toBeNull();
    expect(await page.content()).not.toContain(secret);

    // Edit the whitelists.
    await page.click(`${card('my-site')} details.edit summary`);
    await page.fill(
      `${card('my-site')} [name=redirect_uris]`,
      'https://my-site.example/callback2',
    );
    await page.fill(
      `${card('my-site')} [name=cors_origins]`,
      'https://spa.my-site.example',
    );
    await page.click(`${card('my-site')} details.edit button[type=submit]`);
    await page.waitForSelector(
      `${card('my-site')} code:has-text("https://my-site.example/callback2")`,
    );
    const listed = (await env.center.get('/api/v1/auth/apps', dev.token)).json()
      .data.apps[0];
    expect(listed).toMatchObject({
      client_id: 'my-site',
      redirect_uris: ['https://my-site.example/callback2'],
      cors_origins: ['https://spa.my-site.example'],
      scopes: ['profile', 'email'],
    });

    // Rotate: a new secret is shown once and it is different.
    await page.click(`${card('my-site')} [data-action=rotate]`);
    await page.waitForSelector('#new-secret');
    const rotated = await page.inputValue('#new-secret input');
    expect(rotated).not.toBe(secret);
    expect(rotated.length).toBeGreaterThanOrEqual(43);

    // Disable: the app is refused at once; enable brings it back.
    await page.click(`${card('my-site')} [data-action=toggle]`);
    await page.waitForSelector(`${card('my-site')} [data-status=disabled]`);
    const info = () =>
      env.center.post('/api/v1/auth/client_info', {
        client_id: 'my-site',
        redirect_uri: 'https://my-site.example/callback2',
      });
    expect((await info()).statusCode).toBe(403);
    await screenshot(page, 'console-disabled');
    await page.click(`${card('my-site')} [data-action=toggle]`);
    await page.waitForSelector(`${card('my-site')} [data-status=active]`);
    expect((await info()).statusCode).toBe(200);
    await context.close();
  });

  it('renders the console on a phone-sized screen', async () => {
    const dev = await env.center.register();
    await env.center.post(
      '/api/v1/auth/apps',
      {
        display_name: '手机上的应用',
        redirect_uris: ['https://phone.example/cb'],
        client_type: 'public',
      },
      dev.token,
    );
    const { context, page } = await newPage(env.browser, PHONE);
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.waitForSelector('article.app');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-console');
    await context.close();
  });
});

describe('e2e: user administration', () => {
  it('an admin bans a user (their me gets 403), unbans and changes roles', async () => {
    const admin = await env.center.admin();
    const target = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, admin.username, admin.password);
    await page.click('#user-menu summary');
    await page.click('#user-menu >> text=管理后台');
    await page.waitForURL(`${env.center.baseUrl}/admin`);
    await page.fill('[name=q]', target.username);
    await page.click('button:has-text("搜索")');
    const row = `tr[data-username="${target.username}"]`;
    // The unfiltered list shows the row too: wait for the search's answer to replace it.
    await expect.poll(async () => (await page.$$('tbody tr')).length).toBe(1);
    await page.waitForSelector(row);

    await page.click(`${row} [data-action=ban]`);
    await page.click('#ban-dialog [data-action=confirm]');
    await page.waitForSelector(`${row} [data-status=banned]`);
    expect(
      (await env.center.get('/api/v1/auth/me', target.token)).statusCode,
    ).toBe(403);
    await screenshot(page, 'admin-banned');

    await page.click(`${row} [data-action=ban]`);
    await page.waitForSelector(`${row} [data-status=active]`);
    expect(
      (await env.center.get('/api/v1/auth/me', target.token)).statusCode,
    ).toBe(200);

    await page.click(`${row} [data-action=roles]`);
    await page.fill('#roles-dialog [name=new_role]', 'builder');
    await page.click('#roles-dialog [data-action=add-role]');
    await page.click('#roles-dialog [data-action=confirm]');
    await page.waitForSelector('.notice.success:has-text("角色")');
    expect(
      (await env.center.get('/api/v1/auth/me', target.token)).json().data.roles,
    ).toEqual(['player', 'builder']);
    await context.close();
  });

  it('a user without role admin is told so', async () => {
    const user = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, user.username, user.password);
    await page.click('#user-menu summary');
    await page.waitForSelector('#user-menu >> text=开发者控制台');
    expect(await page.$('#user-menu >> text=管理后台')).toBeNull();
    await page.goto(`${env.center.baseUrl}/admin`);
    await page.waitForSelector('.notice.error:has-text("需要管理员权限")');
    await context.close();
  });
});
