import { describe, expect, it } from 'vitest';
import { centerAndBrowser, newPage, screenshot, signIn } from './browser.js';

const env = centerAndBrowser();
const card = (clientId: string) => `article.app[data-client-id="${clientId}"]`;

describe('e2e: developer console, OpenID Connect client fields', () => {
  it('shows the issuer and discovery URL, creates and edits grant types, auth method and logout callbacks and URI', async () => {
    const dev = await env.center.register();
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.center.baseUrl, dev.username, dev.password);
    await page.click('#user-menu summary');
    await page.click('#user-menu >> text=开发者控制台');
    await page.waitForSelector('text=还没有应用。');

    await page.click('#oidc-issuer summary');
    const issuer = env.center.baseUrl.replace(/\/$/, '');
    await page.waitForSelector('#oidc-issuer input[aria-label="issuer"]');
    await expect
      .poll(() => page.inputValue('#oidc-issuer input[aria-label="issuer"]'))
      .toBe(issuer);
    expect(
      await page.inputValue('#oidc-issuer input[aria-label="discovery URL"]'),
    ).toBe(`${issuer}/.well-known/openid-configuration`);

    await page.click('#create-app summary');
    await page.fill('#create-app [name=display_name]', 'Wiki');
    await page.fill('#create-app [name=client_id]', 'wiki-oidc');
    await page.fill(
      '#create-app [name=redirect_uris]',
      'https://wiki.example/oauth/callback',
    );
    await page.check(
      '#create-app input[name=grant_types][value="client_credentials"]',
    );
    await page.selectOption(
      '#create-app [name=token_endpoint_auth_method]',
      'client_secret_post',
    );
    await page.fill(
      '#create-app [name=post_logout_redirect_uris]',
      'https://wiki.example/bye',
    );
    await page.click('#create-app button[type=submit]');
    await page.waitForSelector(card('wiki-oidc'));
    const text = await page.textContent(card('wiki-oidc'));
    expect(text).toContain('client_secret_post');
    expect(text).toContain('client_credentials');
    expect(text).toContain('https://wiki.example/bye');
    await screenshot(page, 'console-oidc-created');

    // A public client is offered only `none`.
    await page.selectOption('#create-app [name=client_type]', 'public');
    expect(
      await page.$$eval(
        '#create-app [name=token_endpoint_auth_method] option',
        (o) => o.map((x) => x.getAttribute('value')),
      ),
    ).toEqual(['none']);

    await page.click(`${card('wiki-oidc')} details.edit summary`);
    await page.uncheck(
      `${card('wiki-oidc')} input[name=grant_types][value="client_credentials"]`,
    );
    await page.selectOption(
      `${card('wiki-oidc')} [name=token_endpoint_auth_method]`,
      'client_secret_basic',
    );
    await page.fill(
      `${card('wiki-oidc')} [name=backchannel_logout_uri]`,
      'https://wiki.example/backchannel-logout',
    );
    await page.check(
      `${card('wiki-oidc')} input[name=backchannel_logout_session_required]`,
    );
    await page.click(`${card('wiki-oidc')} button[type=submit]`);
    await page.waitForSelector(
      `${card('wiki-oidc')} dd code:text-is("client_secret_basic")`,
    );
    await page.waitForSelector(
      `${card('wiki-oidc')} dd code:text-is("https://wiki.example/backchannel-logout")`,
    );
    const view = (await env.center.get('/api/v1/auth/apps', dev.token)).json()
      .data.apps[0];
    expect(view).toMatchObject({
      client_id: 'wiki-oidc',
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      post_logout_redirect_uris: ['https://wiki.example/bye'],
      backchannel_logout_uri: 'https://wiki.example/backchannel-logout',
      backchannel_logout_session_required: true,
    });
    await context.close();
  });
});
