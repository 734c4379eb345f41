import { describe, expect, it } from 'vitest';
import {
  centerAndBrowser,
  horizontalOverflow,
  newPage,
  screenshot,
  signIn,
} from './browser.js';

const env = centerAndBrowser();
const PHONE_375 = { width: 375, height: 800 };
const card = (clientId: string) => `article.app[data-client-id="${clientId}"]`;

describe('pages: the developer console form', () => {
  it('names the field a person knows: an empty 应用名称 is said before sending, a refused one by its label', async () => {
    const dev = await env.center.register();
    const { context, page } = await newPage(env.browser);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/auth/apps') && r.method() === 'POST')
        sent.push(r.url());
    });
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.click('#create-app summary');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://wiki.example/cb',
    );
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(
      '#create-app .field-error:has-text("请填写应用名称")',
    );
    expect(sent).toEqual([]);
    expect(await page.textContent('#create-app')).not.toContain(
      'display_name：',
    );
    await screenshot(page, 'console-name-required');
    // A name the server refuses (a control character) comes back as 参数错误：display_name.
    await page.fill('#create-app [name=display_name]', 'Wiki\u0007');
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(
      '#create-app .notice.error:has-text("参数错误：应用名称")',
    );
    expect(await page.textContent('#create-app .notice.error')).not.toContain(
      'display_name',
    );
    await context.close();
  });

  it('ticks the default grant types, shows the homepage as a link, and one-line values in inputs with a copy button', async () => {
    const dev = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.click('#create-app summary');
    const ticked = () =>
      page.$$eval('#create-app input[name=grant_types]:checked', (boxes) =>
        boxes.map((b) => b.getAttribute('value')),
      );
    expect(await ticked()).toEqual(['authorization_code', 'refresh_token']);
    await page.fill('#create-app [name=display_name]', 'Forum');
    await page.fill('#create-app [name=client_id]', 'forum-web');
    await page.fill('#create-app [name=homepage]', 'https://forum.example/');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://forum.example/cb',
    );
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(card('forum-web'));
    // After a creation the form is empty again, with the defaults ticked again.
    expect(await ticked()).toEqual(['authorization_code', 'refresh_token']);
    // The new secret is one line too: a read-only input, not a textarea.
    expect(await page.inputValue('#new-secret input[readonly]')).toMatch(
      /^\S{20,}$/,
    );
    const link = page.locator(`${card('forum-web')} a.homepage`);
    expect(await link.getAttribute('href')).toBe('https://forum.example/');
    expect(await link.getAttribute('rel')).toContain('noopener');

    await page.click('#oidc-issuer summary');
    const issuer = env.center.baseUrl;
    for (const [label, value] of [
      ['issuer', issuer],
      ['discovery URL', `${issuer}/.well-known/openid-configuration`],
    ]) {
      const line = page.locator(`#oidc-issuer input[aria-label="${label}"]`);
      await expect.poll(() => line.inputValue()).toBe(value);
      expect(await line.getAttribute('readonly')).not.toBeNull();
      expect(
        await page.isVisible(
          `#oidc-issuer .copy-box:has(input[aria-label="${label}"]) button:has-text("复制")`,
        ),
      ).toBe(true);
    }
    expect(await page.$$('#oidc-issuer textarea')).toHaveLength(0);
    await screenshot(page, 'console-form-desktop');
    await context.close();
  });

  it('is usable 375 px wide: the client-type select and the fields stay inside the screen', async () => {
    const dev = await env.center.register();
    const { context, page } = await newPage(env.browser, PHONE_375);
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.goto(`${env.center.baseUrl}/console`);
    await page.click('#create-app summary');
    await page.click('#oidc-issuer summary');
    for (const selector of [
      '#create-app [name=client_type]',
      '#create-app [name=token_endpoint_auth_method]',
      '#create-app [name=display_name]',
      '#oidc-issuer input[aria-label="discovery URL"]',
    ]) {
      const box = (await page.locator(selector).boundingBox())!;
      expect(box.x, selector).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, selector).toBeLessThanOrEqual(PHONE_375.width);
    }
    // The chosen option reads in full: its text fits the box, less the padding and the arrow.
    for (const name of ['client_type', 'token_endpoint_auth_method']) {
      for (const value of await page.$$eval(
        `#create-app select[name=${name}] option`,
        (o) => o.map((x) => x.getAttribute('value')!),
      )) {
        await page.selectOption(`#create-app select[name=${name}]`, value);
        const room = await page.evaluate<number>(`(() => {
          const select = document.querySelector('#create-app select[name=' + ${JSON.stringify(name)} + ']');
          const style = getComputedStyle(select);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = style.font;
          const text = select.options[select.selectedIndex].text;
          return select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20 - ctx.measureText(text).width;
        })()`);
        expect(room, `${name}=${value}`).toBeGreaterThanOrEqual(0);
      }
    }
    await page.selectOption(
      '#create-app select[name=client_type]',
      'confidential',
    );
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'console-form-phone');
    await context.close();
  });
});
