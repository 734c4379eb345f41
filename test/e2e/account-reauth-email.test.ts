import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { uniqueName } from '../helpers/app.js';
import { DISCORD_CLIENT, startDiscord } from '../helpers/upstream/discord.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { generate } from 'otplib';
import {
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startCenter,
  type Center,
} from './browser.js';

/**
 * /account for an account without a password (docs/api.md §10.1): where a change asks for
 * the owner's proof, a code mailed to the account's address stands in for the password.
 */
let center: Center;
let browser: Browser;
let discord: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  [center, browser, discord] = await Promise.all([
    startCenter(),
    launchBrowser(),
    startDiscord(),
  ]);
  const admin = await center.admin();
  const added = await center.post(
    `${A}/admin/providers`,
    {
      id: 'discord',
      type: 'discord',
      name: 'Discord',
      client_id: DISCORD_CLIENT.id,
      client_secret: DISCORD_CLIENT.secret,
      authorization_endpoint: `${discord.base}/oauth2/authorize`,
      token_endpoint: `${discord.base}/api/oauth2/token`,
      api_base: `${discord.base}/api`,
    },
    admin.token,
  );
  expect(added.statusCode, added.body).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await discord?.close();
  await center?.close();
});

/** A new account made by signing in with Discord: it has the address Discord vouches for, and no password. */
async function passwordlessPerson(
  locale?: string,
): Promise<{ page: Page; close: () => Promise<void>; email: string }> {
  const email = `${uniqueName('mailed')}@example.com`;
  discord.signInAs({
    id: String(90_000_000_000_000_000 + Math.floor(Math.random() * 1e9)),
    username: uniqueName('dc'),
    email,
    verified: true,
  });
  const { context, page } = await newPage(browser, undefined, locale);
  await page.goto(`${center.baseUrl}/login`);
  await page
    .getByRole('button', {
      name: locale === 'en-US' ? 'Sign in with Discord' : '使用 Discord 登录',
      exact: true,
    })
    .click();
  await page.waitForURL(`${center.baseUrl}/account`);
  return { page, close: () => context.close(), email };
}

describe('e2e: proving it is you with a mailed code on /account', () => {
  it("turns the authenticator on with a code mailed to the account, in the page's language", async () => {
    const { page, close, email } = await passwordlessPerson();
    const setup = page.locator('#two-factor form:has(#totp-setup)');
    await setup.locator('.reauth-email').waitFor();
    expect(await setup.locator('.reauth-upstream').textContent()).toContain(
      email,
    );
    expect(await setup.locator('#f-totp_setup_password').isHidden()).toBe(true);
    // Without the code the change is refused, as without a password.
    await page.click('#totp-setup');
    await page.waitForSelector(
      '#two-factor .notice.error:has-text("身份验证未通过：邮箱验证码或两步验证码不正确")',
    );
    expect(await page.isVisible('#totp-secret')).toBe(false);
    const before = center.smtp.countTo(email);
    await setup.locator('[data-action=send-reauth-code]').click();
    await setup.getByText('验证码已发送').waitFor();
    const code = await center.smtp.nextCodeFor(email, before);
    expect(center.smtp.subjectsTo(email).at(-1)).toBe('【账号中心】身份验证码');
    await page.fill('#f-totp_setup_email_code', code);
    await screenshot(page, 'account-reauth-email');
    await page.click('#totp-setup');
    await page.locator('#totp-secret').waitFor();
    await close();
  });

  it('in English: deletes the account with a code from an English mail', async () => {
    const { page, close, email } = await passwordlessPerson('en-US');
    const removal = page.locator('#danger');
    await removal.locator('summary').click();
    await removal.locator('.reauth-email').waitFor();
    expect(
      await removal.locator('label[for=f-delete_email_code]').textContent(),
    ).toBe('E-mail code');
    const before = center.smtp.countTo(email);
    await removal.getByRole('button', { name: 'Send code' }).click();
    await removal.getByText('Code sent').waitFor();
    const code = await center.smtp.nextCodeFor(email, before);
    expect(center.smtp.subjectsTo(email).at(-1)).toBe(
      '[Account Center] Identity confirmation code',
    );
    await page.fill('#f-delete_email_code', code);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#delete-account');
    await page.waitForURL((u) => u.pathname === '/login');
    await close();
  });

  it('turning the authenticator off asks for the same proof as every change: the password and a code', async () => {
    const person = await center.register();
    const { context, page } = await newPage(browser);
    await signIn(page, center.baseUrl, person.username, person.password);
    await page.fill('#f-totp_setup_password', person.password);
    await page.click('#totp-setup');
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    await page.fill('#f-totp_code', await generate({ secret }));
    await page.click('#totp-enable');
    await page.waitForSelector('#recovery-codes li');
    const recovery = await page.locator('#recovery-codes li').allTextContents();
    expect(await page.isVisible('#two-factor .reauth-email')).toBe(false);
    await page.fill('#f-totp_off_password', person.password);
    await page.fill('#f-totp_off_otp', recovery[0]!.trim());
    await page.click('#totp-disable');
    await page.locator('#totp-setup').waitFor();
    expect(
      (await center.get(`${A}/account/second_factor`, person.token)).json().data
        .totp,
    ).toBe(false);
    await context.close();
  });
});
