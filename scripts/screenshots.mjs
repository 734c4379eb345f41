#!/usr/bin/env node
// The documentation's screenshots, made again with one command against a throw-away center:
//
//   npm run screenshots              docs/images/upstream-login-{zh,en}.png
//   npm run screenshots -- --review DIR
//                                    every page in both languages, at desktop and phone width,
//                                    into DIR (for looking over the pages before a release)
//
// The center runs from dist/ (the npm script builds it first) on a fresh SQLite database in a
// temporary folder; providers and users are made with the real CLI. The browser is the
// system's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), driven by playwright-core.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  ADMIN,
  api,
  prepare,
  root,
  startCenter,
} from './screenshot-center.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS_VIEWPORT = { width: 1100, height: 800 };
const PHONE = { width: 390, height: 844 };
const LANGUAGES = [
  { tag: 'zh', locale: 'zh-CN' },
  { tag: 'en', locale: 'en-US' },
];
async function newPage(browser, viewport, locale) {
  const phone = viewport.width < 600;
  const context = await browser.newContext({
    viewport,
    locale,
    deviceScaleFactor: 1,
    isMobile: phone,
    hasTouch: phone,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** The sign-in page with its provider buttons, cut to the header and the card. */
async function docsShots(browser, baseUrl) {
  const out = join(root, 'docs', 'images');
  for (const { tag, locale } of LANGUAGES) {
    const { context, page } = await newPage(browser, DOCS_VIEWPORT, locale);
    await page.goto(`${baseUrl}/login`);
    await page.waitForSelector('body.ready');
    await page.getByRole('button', { name: /GitHub/ }).waitFor();
    const card = await page.locator('main').boundingBox();
    const height = Math.ceil(card.y + card.height + 24);
    const file = join(out, `upstream-login-${tag}.png`);
    await page.screenshot({
      path: file,
      fullPage: true,
      clip: { x: 0, y: 0, width: DOCS_VIEWPORT.width, height },
    });
    console.log(file);
    await context.close();
  }
}

async function signIn(page, baseUrl) {
  await page.goto(`${baseUrl}/login`);
  await page.fill('#f-username', ADMIN.username);
  await page.fill('#f-password', ADMIN.password);
  await page.click('form:not([hidden]) button[type=submit]');
  await page.waitForURL(`${baseUrl}/account`);
}

/** Every page, in each language, at desktop and phone width, as full-page screenshots in `dir`. */
async function reviewShots(browser, baseUrl, dir) {
  mkdirSync(dir, { recursive: true });
  const { access_token: token } = await api(baseUrl, 'login', {
    username: ADMIN.username,
    password: ADMIN.password,
  });
  const callback = 'https://game.example.com/callback';
  const app = await api(
    baseUrl,
    'apps',
    {
      display_name: '星海启动器 Starsea Launcher',
      homepage: 'https://game.example.com',
      redirect_uris: [callback],
      client_type: 'confidential',
    },
    token,
  );
  const consent = `/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: callback, state: 'xyz', scope: 'profile email' })}`;
  const oidcConsent = `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: callback,
    scope: 'openid profile email',
    state: 'xyz',
    nonce: 'n-1',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })}`;
  const signedOut = [
    ['login', '/login'],
    ['register', '/register'],
    ['reset-password', '/reset_password'],
    ['upstream-error', '/login/steam/callback?state=forged'],
  ];
  const signedIn = [
    ['account', '/account'],
    ['console', '/console'],
    ['admin-users', '/admin'],
    ['admin-user', `/admin?view=user&username=${ADMIN.username}`],
    ['admin-dashboard', '/admin?view=dashboard'],
    ['admin-apps', '/admin?view=apps'],
    ['admin-providers', '/admin?view=providers'],
    ['admin-invites', '/admin?view=invites'],
    ['admin-webhooks', '/admin?view=webhooks'],
    ['admin-audit', '/admin?view=audit'],
    ['authorize-consent', consent],
    ['oauth-authorize-consent', oidcConsent],
    [
      'authorize-unknown-app',
      `/authorize?client_id=nope&redirect_uri=${encodeURIComponent(callback)}&state=x`,
    ],
    [
      'oauth-authorize-error',
      '/oauth/authorize?client_id=nope&response_type=code',
    ],
    ['not-found', '/no/such/page'],
    ['device', '/device'],
    ['device-request', 'device-request'],
  ];
  for (const { tag, locale } of LANGUAGES) {
    for (const [width, viewport] of [
      ['desktop', { width: 1100, height: 800 }],
      ['phone', PHONE],
    ]) {
      const shoot = async (page, name) => {
        await page.waitForSelector('body.ready');
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: join(dir, `${name}-${tag}-${width}.png`),
          fullPage: true,
        });
      };
      const out = await newPage(browser, viewport, locale);
      for (const [name, path] of signedOut) {
        await out.page.goto(baseUrl + path);
        await shoot(out.page, name);
      }
      await out.context.close();
      const { context, page } = await newPage(browser, viewport, locale);
      await signIn(page, baseUrl);
      for (const [name, path] of signedIn) {
        if (path === 'device-request') {
          const started = await api(baseUrl, 'device/start', {
            client_id: app.client_id,
          });
          await page.goto(`${baseUrl}/device?user_code=${started.user_code}`);
          await page.waitForSelector('#device-request');
        } else {
          await page.goto(baseUrl + path);
        }
        await shoot(page, name);
      }
      await context.close();
    }
  }
  console.log(`screenshots in ${dir}`);
}

async function main() {
  const review = process.argv.indexOf('--review');
  const reviewDir = review >= 0 ? process.argv[review + 1] : undefined;
  if (review >= 0 && !reviewDir)
    throw new Error('--review DIR: a folder is required');
  if (!existsSync(join(root, 'dist', 'entry.js')))
    throw new Error('not built yet: run npm run build');
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'account-center-shots-'));
  let center;
  let browser;
  try {
    const env = await prepare(dir);
    center = await startCenter(env);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    if (reviewDir) await reviewShots(browser, center.baseUrl, reviewDir);
    else await docsShots(browser, center.baseUrl);
  } finally {
    await browser?.close();
    await center?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exitCode = 1;
});
