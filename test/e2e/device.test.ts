import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  centerAndBrowser,
  newPage,
  PHONE,
  screenshot,
  signIn,
} from './browser.js';

const EXAMPLE = 'examples/device-login/index.mjs';
const env = centerAndBrowser();

/** The device client from examples/, run as a real process; resolves when it prints the code. */
function runDeviceExample(clientId: string) {
  const child = spawn(
    process.execPath,
    [EXAMPLE, '--base', env.center.baseUrl, '--client-id', clientId],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out })),
  );
  const link = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /\(or open (\S+)\)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(out));
      }
    }, 50);
  });
  return { link, exited, kill: () => child.kill('SIGTERM') };
}

describe('e2e: device login', () => {
  it('the device example polls while the user approves in the env.browser (phone screen)', async () => {
    expect(existsSync(EXAMPLE)).toBe(true);
    const dev = await env.center.register();
    const created = await env.center.post(
      '/api/v1/auth/apps',
      {
        display_name: '星海启动器',
        redirect_uris: ['com.example.launcher:/cb'],
        client_type: 'public',
      },
      dev.token,
    );
    expect(created.statusCode, created.body).toBe(200);
    const device = runDeviceExample(created.json().data.client_id);
    try {
      const link = await device.link;
      expect(link).toMatch(
        new RegExp(`^${env.center.baseUrl}/device\\?user_code=\\d{6}$`),
      );
      const player = await env.center.register();
      const { context, page } = await newPage(env.browser, PHONE);
      await signIn(page, env.center.baseUrl, player.username, player.password);
      await page.goto(link);
      expect(await page.inputValue('#f-user_code')).toBe(
        new URL(link).searchParams.get('user_code'),
      );
      // Who asks is on screen before the user can confirm (docs/api.md §11).
      await page.waitForSelector('#device-request:has-text("星海启动器")');
      await screenshot(page, 'device-approve');
      await page.click('#approve');
      await page.waitForSelector('#device-result:has-text("星海启动器")');
      await screenshot(page, 'device-approved');
      const { code, out } = await device.exited;
      expect(out).toContain(`signed in as ${player.username}`);
      expect(code).toBe(0);
      await context.close();
    } finally {
      device.kill();
    }
  }, 40_000);

  it('at 375 px the first step is only the code and 下一步; a short code is told without asking the server', async () => {
    const player = await env.center.register();
    const { context, page } = await newPage(env.browser, {
      width: 375,
      height: 800,
    });
    await signIn(page, env.center.baseUrl, player.username, player.password);
    await page.goto(`${env.center.baseUrl}/device`);
    await page.waitForSelector('#device-next');
    expect(await page.isVisible('#approve')).toBe(false);
    expect(await page.isVisible('#deny')).toBe(false);
    await page.fill('#f-user_code', '123');
    await page.press('#f-user_code', 'Enter');
    await page.waitForSelector('.notice.error:has-text("6 位数字验证码")');
    const box = (await page.locator('#device-next').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await screenshot(page, 'device-step-one-phone');
    await context.close();
  });

  it('deny makes the poll answer access_denied; a wrong code shows the server message', async () => {
    const started = (
      await env.center.post('/api/v1/auth/device/start', {})
    ).json().data;
    const player = await env.center.register();
    const { context, page } = await newPage(env.browser);
    // Signed out: the page signs the user in first and comes back with the code kept.
    await page.goto(`${env.center.baseUrl}/device`);
    await page.waitForURL(
      (u) =>
        u.pathname === '/login' && u.searchParams.get('next') === '/device',
    );
    await page.fill('#f-username', player.username);
    await page.fill('#f-password', player.password);
    await page.click('form:not([hidden]) button[type=submit]');
    await page.waitForURL(`${env.center.baseUrl}/device`);

    const wrong = started.user_code === '000000' ? '000001' : '000000';
    await page.fill('#f-user_code', wrong);
    await page.click('#device-next');
    await page.waitForSelector('.notice.error:has-text("设备码无效或已过期")');
    await screenshot(page, 'device-wrong-code');
    // Typing a new code takes the old error away at once.
    await page.fill('#f-user_code', started.user_code.slice(0, 3));
    expect(await page.isVisible('.notice.error')).toBe(false);
    await page.fill('#f-user_code', started.user_code);
    await page.click('#device-next');
    await page.waitForSelector('#device-request');
    await page.click('#deny');
    await page.waitForSelector('#device-result:has-text("已拒绝")');
    const poll = await env.center.post('/api/v1/auth/device/poll', {
      device_code: started.device_code,
    });
    expect(poll.statusCode).toBe(400);
    expect(poll.json()).toMatchObject({ ok: false, error: 'access_denied' });
    await context.close();
  });
});
