import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/net.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'e2e');

/** Headless Chromium from the system; a missing browser is a clear failure, never a skip. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

/** A fresh browser profile (own localStorage and cookies), with a zh-CN locale unless told (its Accept-Language). */
export async function newPage(
  browser: Browser,
  viewport = DESKTOP,
  locale = 'zh-CN',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    locale,
    deviceScaleFactor: 1,
    isMobile: viewport === PHONE,
    hasTouch: viewport === PHONE,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({
    path: join(ARTIFACTS, `${name}.png`),
    fullPage: true,
  });
}

export { freePort } from '../helpers/net.js';

export interface Center extends TestApp {
  baseUrl: string;
}

/** The whole service listening on loopback, with BASE_URL set to its real address. */
export async function startCenter(
  env: Record<string, string> = {},
): Promise<Center> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: baseUrl,
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

/** Signs `page` in through the login form and waits for the account page. */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('#f-username', username);
  await page.fill('#f-password', password);
  await page.click('form:not([hidden]) button[type=submit]');
  await page.waitForURL(`${baseUrl}/account`);
}

/** How far the page is wider than the viewport (0 or less: no horizontal scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>(
    'document.documentElement.scrollWidth - window.innerWidth',
  );
}

/** The keys the page keeps in localStorage. */
export function storedKeys(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('Object.keys(localStorage)');
}

/** One service and one browser shared by a test file's tests, closed after them. */
export function centerAndBrowser(settings: Record<string, string> = {}): {
  center: Center;
  browser: Browser;
} {
  const env = {} as { center: Center; browser: Browser };
  beforeAll(async () => {
    [env.center, env.browser] = await Promise.all([
      startCenter(settings),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.center?.close();
  });
  return env;
}

/** Fills and submits the sign-up form, reading the e-mailed code from the SMTP sink. */
/** A fresh administrator signed in on a new page of `env`'s center, desktop and zh-CN unless told. */
export async function adminPage(
  env: { center: Center; browser: Browser },
  viewport = DESKTOP,
  locale = 'zh-CN',
) {
  const admin = await env.center.admin();
  const { context, page } = await newPage(env.browser, viewport, locale);
  await signIn(page, env.center.baseUrl, admin.username, admin.password);
  return { admin, context, page };
}

export async function registerThroughForm(
  page: Page,
  center: Center,
  username: string,
  shot?: string,
): Promise<void> {
  const email = `${username}@example.com`;
  await page.fill('#f-username', username);
  await page.fill('#f-email', email);
  await page.click('text=发送验证码');
  await page.waitForSelector('text=验证码已发送');
  await page.fill('#f-email_code', await center.smtp.codeFor(email));
  await page.fill('#f-password', 'correct horse battery');
  if (shot) await screenshot(page, shot);
  await page.click('button:has-text("注册")');
}
