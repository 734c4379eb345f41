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
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const BIN = join(root, 'bin', 'account-center.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS_VIEWPORT = { width: 1100, height: 800 };
const PHONE = { width: 390, height: 844 };
const LANGUAGES = [
  { tag: 'zh', locale: 'zh-CN' },
  { tag: 'en', locale: 'en-US' },
];
const ADMIN = {
  username: 'admin_demo',
  password: 'correct horse battery',
  email: 'admin@example.com',
};

/** The providers the sign-in page shows; the ids and secrets are placeholders, never called. */
const PROVIDERS = [
  [
    '--id',
    'steam',
    '--type',
    'steam',
    '--name',
    'Steam',
    '--api-key',
    'DEMO0000000000000000000000000000',
  ],
  [
    '--id',
    'discord',
    '--type',
    'discord',
    '--name',
    'Discord',
    '--client-id',
    '1100000000000000001',
    '--client-secret',
    'demo-secret',
  ],
  [
    '--id',
    'qq',
    '--type',
    'qq',
    '--name',
    'QQ',
    '--client-id',
    '101000001',
    '--client-secret',
    'demo-secret',
  ],
  [
    '--id',
    'github',
    '--type',
    'github',
    '--name',
    'GitHub',
    '--client-id',
    'Iv1.demo00000000',
    '--client-secret',
    'demo-secret',
  ],
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
  });
}

/** `account-center <args>` with `env` and PATH only, so nothing of the caller's configuration leaks in. */
function cli(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (d) => {
      errors += d;
    });
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `account-center ${args.join(' ')}: exit ${code}\n${errors}`,
            ),
          ),
    );
  });
}

/** `serve` on a free port; resolves once /login answers. */
async function startCenter(env) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let tries = 0; ; tries++) {
    const state = await Promise.race([
      exited.then(() => 'exited'),
      fetch(`${baseUrl}/login`).then(
        (r) => (r.ok ? 'up' : 'down'),
        () => 'down',
      ),
    ]);
    if (state === 'up') break;
    if (state === 'exited' || tries > 300)
      throw new Error('the center did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A fresh database with the demo providers and an administrator, made through the CLI. */
async function prepare(dir) {
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'account-center.db')}`,
    JWT_SECRET: randomBytes(48).toString('base64'),
    LOG_LEVEL: 'warn',
    IP_RATE_LIMITS: 'off',
  };
  await cli(env, [
    'user',
    'create',
    '--username',
    ADMIN.username,
    '--password',
    ADMIN.password,
    '--email',
    ADMIN.email,
    '--roles',
    'player,admin',
  ]);
  for (const provider of PROVIDERS)
    await cli(env, ['provider', 'add', ...provider]);
  return env;
}

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

/** JSON call to the v1 API. */
async function api(baseUrl, path, body, token) {
  const res = await fetch(`${baseUrl}/api/v1/auth/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!answer.ok) throw new Error(`${path}: ${answer.msg}`);
  return answer.data ?? answer;
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
