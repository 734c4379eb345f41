import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  freePort,
  runCommand,
  startServer,
  type RunningServer,
} from '../helpers/server.js';
import { DESKTOP, launchBrowser, newPage, screenshot } from './browser.js';

/**
 * A new operator follows the README's "First steps" as written: the commands, addresses and
 * button names are read out of README.md and README.zh-CN.md, so the test fails when either
 * drifts from what the program does. The commands run as the real CLI and the built service;
 * the pages are driven in Chromium, whose virtual authenticator holds the passkey.
 *
 * Where a test cannot be literal: the port is a free one rather than 3000 (so PORT is set
 * with BASE_URL), the database is `./data/account-center.db` moved to a folder of its own,
 * and `npm start` runs what package.json says it runs once the build is done (the test
 * setup builds). No JWT_SECRET is given, so the command line and the server share the one
 * generated into the data folder, as they do for an operator.
 */

interface FirstSteps {
  /** `npx account-center …`, placeholders and all. */
  create: string;
  /** `NAME=value … npm start`. */
  start: string;
  /** The address the operator opens to sign in. */
  signInAt: string;
  /** The IP address the pages say passkeys are unavailable at. */
  ipAddress: string;
  /** The quoted names, in order: the passkeys section, add, sign out, sign in with a passkey. */
  labels: string[];
}

/** The numbered steps under the "First steps" line, up to the next paragraph. */
function firstSteps(file: string, heading: RegExp): FirstSteps {
  const text = readFileSync(file, 'utf8');
  const from = text.search(heading);
  expect(from, `${file}: the first steps`).toBeGreaterThan(0);
  const [, list = ''] = text.slice(from).split('\n\n');
  const items = list
    .split(/^\d+\. /m)
    .slice(1)
    .map((s) => s.replace(/\s*\n\s*/g, ' '));
  // Each step's `code` spans and "quoted" names, with the step's number.
  const spans = (re: RegExp) =>
    items.flatMap((s, step) =>
      [...s.matchAll(re)].map((m) => ({ step, text: m[1] ?? '' })),
    );
  const codes = spans(/`([^`]+)`/g);
  const code = (what: string, re: RegExp) => {
    const found = codes.find((c) => re.test(c.text));
    if (!found) throw new Error(`${file}: no first step ${what}`);
    return found;
  };
  const create = code('creates the administrator', /^npx account-center /);
  const start = code('starts the service', /^(\w+=\S+ )+npm start$/);
  const ipAddress = code('names an IP address', /^http:\/\/\d[\d.:]+$/);
  const signInAt = code('signs in', /^http:\/\/\S+\/login$/);
  const quoted = spans(/["“]([^"”]+)["”]/g);
  // In the order an operator takes them.
  expect(create.step).toBeLessThan(start.step);
  expect(start.step).toBeLessThan(signInAt.step);
  expect(quoted[0]?.step).toBeGreaterThan(signInAt.step);
  return {
    create: create.text,
    start: start.text,
    signInAt: signInAt.text,
    ipAddress: ipAddress.text,
    labels: quoted.map((q) => q.text),
  };
}

/**
 * The words of a README command, each `<placeholder>` replaced by the operator's value for
 * the option before it (`--username <you>` takes `values['--username']`).
 */
function words(command: string, values: Record<string, string>): string[] {
  const all = command.split(/\s+/);
  return all.map((word, i) => {
    if (!/^<[^>]+>$/.test(word)) return word;
    const value = values[all[i - 1] ?? ''];
    if (value === undefined)
      throw new Error(`no value for the README's ${all[i - 1]} ${word}`);
    return value;
  });
}

/** The `NAME=value` settings a README command starts with. */
function settings(command: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of command.matchAll(/(?:^| )(\w+)=(\S+)/g))
    out[m[1] ?? ''] = m[2] ?? '';
  return out;
}

/** The arguments `npm start` gives bin/account-center.js after `serve`, read from package.json. */
function serveArguments(): string[] {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts;
  const last = (scripts.start as string).split('&&').at(-1)?.trim() ?? '';
  expect(last).toMatch(/^node bin\/account-center\.js serve\b/);
  return last.split(/\s+/).slice(3);
}

const READMES = [
  { file: 'README.md', heading: /^First steps\b/m, locale: 'en-US' },
  { file: 'README.zh-CN.md', heading: /^第一步/m, locale: 'zh-CN' },
] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(READMES)('$file: first steps', ({ file, heading, locale }) => {
  const dir = mkdtempSync(join(tmpdir(), 'first-steps-'));
  const databaseUrl = `sqlite:${join(dir, 'data', 'account-center.db')}`;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the first administrator adds a passkey and signs in with it', async () => {
    const steps = firstSteps(file, heading);
    // The operator's own values for the command's placeholders.
    const you = `op${process.pid}${locale === 'en-US' ? 'en' : 'zh'}`;
    const password = 'correct horse battery';
    // 1. The first administrator, made with the command line before the service runs.
    const [npx, bin, ...args] = words(steps.create, {
      '--username': you,
      '--password': password,
      '--email': `${you}@example.com`,
    });
    expect(`${npx} ${bin}`).toBe('npx account-center');
    const env = { DATABASE_URL: databaseUrl, JWT_SECRET: '' };
    const made = await runCommand(env, args, {
      isolated: true,
      timeoutMs: 120_000,
    });
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      username: you,
      roles: ['player', 'admin'],
    });
    expect(existsSync(join(dir, 'data', 'jwt-secret'))).toBe(true);

    // 2. The service under a name: BASE_URL from the README, on a free port.
    const startEnv = settings(steps.start);
    const readmeBase = new URL(startEnv.BASE_URL ?? 'http://BASE_URL.unset');
    expect(readmeBase.hostname).toBe('localhost');
    const baseUrl = new URL(readmeBase.href);
    baseUrl.port = String(await freePort());
    const base = baseUrl.origin;
    server = await startServer(
      { ...env, ...startEnv, BASE_URL: base, PORT: baseUrl.port },
      serveArguments(),
    );
    expect(server.output()).toContain('using the one generated in');

    const { context, page } = await newPage(browser, DESKTOP, locale);
    try {
      // At the IP address the README names, the sign-in page explains passkeys instead.
      const ip = new URL(steps.ipAddress);
      ip.port = baseUrl.port;
      await page.goto(`${ip.origin}/login`);
      await page.waitForSelector('#passkeys-unavailable');
      expect(await page.$('#passkey-login')).toBeNull();
      await expect(
        page.textContent('#passkeys-unavailable'),
      ).resolves.toContain(base);

      // 3. Sign in with the password at the README's address.
      const signInAt = new URL(steps.signInAt);
      expect(signInAt.origin).toBe(readmeBase.origin);
      await page.goto(new URL(signInAt.pathname, base).href);
      await page.fill('#f-username', you);
      await page.fill('#f-password', password);
      await page.click('form:not([hidden]) button[type=submit]');
      await page.waitForURL(`${base}/account`);
      await expect(page.textContent('#profile-username')).resolves.toBe(you);

      // 4. A passkey, made by Chromium's virtual authenticator with the user present.
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      expect(steps.labels).toHaveLength(4);
      const [section = '', add = '', signOut = '', passkeySignIn = ''] =
        steps.labels;
      const passkeys = page.locator('#passkeys');
      await expect(passkeys.locator('h2').textContent()).resolves.toBe(section);
      const row = `#passkey-list [data-passkey="Chromium ${locale}"]`;
      await page.fill('#f-passkey_name', `Chromium ${locale}`);
      await page.fill('#f-passkey_add_password', password);
      await passkeys.getByRole('button', { name: add, exact: true }).click();
      await page.waitForSelector(row);
      await screenshot(page, `first-steps-passkey-${locale}`);

      // Signed out, the passkey alone signs in: no user name or password is typed.
      await page.getByRole('button', { name: signOut, exact: true }).click();
      await page.waitForURL(`${base}/login`);
      await page
        .getByRole('button', { name: passkeySignIn, exact: true })
        .click();
      await page.waitForURL(`${base}/account`);
      await expect(page.textContent('#profile-username')).resolves.toBe(you);
      await page.waitForSelector(row);

      // 5. The command line made an administrator: /admin lists the users.
      await page.goto(`${base}/admin`);
      await page.waitForSelector(`tr[data-username="${you}"]`);
    } finally {
      await context.close();
    }
  }, 90_000);
});
