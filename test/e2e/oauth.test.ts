import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { uniqueName, type TestUser } from '../helpers/app.js';
import {
  freePort,
  launchBrowser,
  newPage,
  registerThroughForm,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';
import {
  startExample,
  spaRedirect,
  webBackendRedirect,
  type ExampleServer,
} from './examples.js';

let center: Center;
let browser: Browser;
let developer: TestUser;
let webBackend: ExampleServer;
let spa: ExampleServer;
let spaClientId: string;
const examples: ExampleServer[] = [];

async function createApp(body: Record<string, unknown>) {
  const res = await center.post('/api/v1/auth/apps', body, developer.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { client_id: string; client_secret?: string };
}

/**
 * The examples must know their own address before the app is registered, so each gets a
 * port first; the example then listens on exactly that port.
 */
async function startWithApp(
  kind: 'web-backend' | 'spa',
): Promise<ExampleServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app =
    kind === 'web-backend'
      ? await createApp({
          display_name: '示例网站',
          homepage: url,
          redirect_uris: [webBackendRedirect(url)],
          scopes: ['profile', 'email'],
        })
      : await createApp({
          display_name: '示例单页应用',
          redirect_uris: [spaRedirect(url)],
          client_type: 'public',
        });
  if (kind === 'spa') spaClientId = app.client_id;
  const env: Record<string, string> = {
    CENTER_URL: center.baseUrl,
    CLIENT_ID: app.client_id,
    APP_URL: url,
  };
  if (app.client_secret) env.CLIENT_SECRET = app.client_secret;
  const server = await startExample(`examples/${kind}/server.mjs`, env, port);
  examples.push(server);
  return server;
}

beforeAll(async () => {
  [center, browser] = await Promise.all([startCenter(), launchBrowser()]);
  developer = await center.register({ username: uniqueName('dev') });
});
afterAll(async () => {
  await Promise.all(examples.map((e) => e.close()));
  await browser?.close();
  await center?.close();
});

describe('e2e: sign in to the example clients through the consent page', () => {
  it('confidential web back end: sign up on the way, consent, callback shows the user', async () => {
    webBackend = await startWithApp('web-backend');
    const { context, page } = await newPage(browser);
    await page.goto(webBackend.url);
    await page.click('#login');
    // Not signed in: the consent page sends the browser to sign in, keeping the whole request.
    await page.waitForURL(
      (u) =>
        u.pathname === '/login' &&
        (u.searchParams.get('next') ?? '').startsWith('/authorize?'),
    );
    await page.click('text=没有账号？注册');
    await page.waitForURL((u) => u.pathname === '/register');
    const username = uniqueName('player');
    await registerThroughForm(page, center, username);

    await page.waitForURL((u) => u.pathname === '/authorize');
    await page.waitForSelector('#agree');
    await expect(page.textContent('#app-name')).resolves.toBe('示例网站');
    await expect(page.textContent('.scopes')).resolves.toContain('profile');
    await expect(page.textContent('body')).resolves.toContain(webBackend.url);
    await screenshot(page, 'consent-web-backend');
    await page.click('#agree');

    await page.waitForURL(`${webBackend.url}/`);
    await expect(page.textContent('#result')).resolves.toContain(
      `signed in as ${username}`,
    );
    await screenshot(page, 'web-backend-signed-in');
    await context.close();
  });

  it('public single-page app: PKCE in the browser, exchange and me over CORS', async () => {
    spa = await startWithApp('spa');
    const user = await center.register();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, user.username, user.password);

    await page.goto(spa.url);
    await page.click('#login');
    await page.waitForURL(
      (u) =>
        u.pathname === '/authorize' &&
        u.searchParams.get('code_challenge_method') === 'S256',
    );
    await page.waitForSelector('#agree');
    await expect(page.textContent('#app-name')).resolves.toBe('示例单页应用');
    await screenshot(page, 'consent-spa');
    await page.click('#agree');
    await page.waitForURL(`${spa.url}/`);
    await page.waitForSelector('#result:has-text("signed in as")');
    await expect(page.textContent('#result')).resolves.toBe(
      `signed in as ${user.username}`,
    );
    expect(page.url()).toBe(`${spa.url}/`); // the code does not stay in the address
    await screenshot(page, 'spa-signed-in');
    await context.close();
  });

  it('deny lands on the redirect URI with error=access_denied and the state', async () => {
    const user = await center.register();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, user.username, user.password);

    await page.goto(spa.url);
    await page.click('#login');
    await page.waitForSelector('#deny');
    const state = new URL(page.url()).searchParams.get('state');
    const landed = page.waitForRequest((r) =>
      r.url().startsWith(`${spa.url}/?`),
    );
    await page.click('#deny');
    const url = new URL((await landed).url());
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.has('code')).toBe(false);
    await page.waitForSelector('#result:has-text("access_denied")');
    await context.close();
  });

  it('bad links get an error page and never leave /authorize', async () => {
    const user = await center.register();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, user.username, user.password);

    const cases: Array<[string, string]> = [
      [
        `client_id=${spaClientId}&redirect_uri=${encodeURIComponent('http://evil.example/cb')}&state=s1&code_challenge=x&code_challenge_method=S256`,
        '回调地址不在白名单内',
      ],
      [
        `client_id=${spaClientId}&redirect_uri=${encodeURIComponent(`${spaRedirect(spa.url)}x`)}&state=s1`,
        '回调地址不在白名单内',
      ],
      [
        `client_id=no-such-app&redirect_uri=${encodeURIComponent(spaRedirect(spa.url))}&state=s1`,
        '未知的应用',
      ],
      [
        `client_id=${spaClientId}&redirect_uri=${encodeURIComponent(spaRedirect(spa.url))}&state=s1`,
        '公开客户端必须提供 code_challenge(PKCE)',
      ],
    ];
    // Leaving /authorize would be a main-frame navigation to some other address.
    const left: string[] = [];
    page.on('request', (r) => {
      if (
        r.isNavigationRequest() &&
        r.frame() === page.mainFrame() &&
        !r.url().startsWith(`${center.baseUrl}/authorize?`)
      )
        left.push(r.url());
    });
    for (const [query, msg] of cases) {
      const target = `${center.baseUrl}/authorize?${query}`;
      await page.goto(target);
      await page.waitForSelector(`.notice.error:has-text("${msg}")`);
      // The page has settled once its requests are done; only then is staying put a result.
      await page.waitForLoadState('networkidle');
      expect(left).toEqual([]);
      expect(page.url()).toBe(target);
      expect(await page.$('#agree')).toBeNull();
    }
    await screenshot(page, 'authorize-error');

    // A disabled application is refused the same way.
    await center.post(
      '/api/v1/auth/apps/disable',
      { client_id: spaClientId, enabled: false },
      developer.token,
    );
    const target = `${center.baseUrl}/authorize?client_id=${spaClientId}&redirect_uri=${encodeURIComponent(spaRedirect(spa.url))}&state=s&code_challenge=abc&code_challenge_method=S256`;
    await page.goto(target);
    await page.waitForSelector('.notice.error:has-text("该应用已被停用")');
    expect(page.url()).toBe(target);
    await center.post(
      '/api/v1/auth/apps/disable',
      { client_id: spaClientId, enabled: true },
      developer.token,
    );
    await context.close();
  });
});
