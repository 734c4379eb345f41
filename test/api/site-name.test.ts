import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

const BROWSER = { accept: 'text/html' };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SITE_NAME: '星海社区' });
});
afterAll(async () => {
  await t.close();
});

describe('SITE_NAME names the center', () => {
  it('in the subject and the signature of every e-mail', async () => {
    const u = await t.register();
    const before = t.smtp.countTo(u.email);
    expect(
      (
        await t.post('/api/v1/auth/send_code', {
          email: u.email,
          purpose: 'login',
        })
      ).statusCode,
    ).toBe(200);
    await t.smtp.nextCodeFor(u.email, before);
    expect(t.smtp.subjectsTo(u.email).at(-1)).toBe('【星海社区】登录验证码');
    expect(t.smtp.textsTo(u.email).at(-1)).toMatch(/\n星海社区\s*$/);
    // One form of address on every page and e-mail: 你, never 您.
    expect(t.smtp.textsTo(u.email).at(-1)).toMatch(/^你的登录验证码是 \d{6}/);
  });

  it('in the notice of a password change, which addresses its reader as 你', async () => {
    const u = await t.register();
    const before = t.smtp.countTo(u.email);
    const changed = await t.post(
      '/api/v1/auth/account/password',
      { current_password: u.password, new_password: 'brand new password' },
      u.token,
    );
    expect(changed.statusCode).toBe(200);
    await waitFor('the notice', 5000, () => t.smtp.countTo(u.email) > before);
    expect(t.smtp.subjectsTo(u.email).at(-1)).toBe('【星海社区】密码已更改');
    const text = t.smtp.textsTo(u.email).at(-1)!;
    expect(text).toMatch(/^你的账号 /);
    expect(text).not.toContain('您');
    expect(text).toMatch(/\n星海社区\s*$/);
  });

  it('in the title of the pages, the bundle pages, the not-found page and the server-rendered OpenID pages', async () => {
    const login = await t.get('/login', undefined, BROWSER);
    expect(login.body).toContain('<title>登录 - 星海社区</title>');
    expect(login.body).toContain('data-site-name="星海社区"');
    expect(login.body).not.toContain('账号中心');
    expect((await t.get('/nope', undefined, BROWSER)).body).toContain(
      '<title>页面不存在 - 星海社区</title>',
    );
    const signedOut = await t.app.inject({
      method: 'GET',
      url: '/oauth/end_session',
    });
    expect(signedOut.body).toContain(
      '<a class="brand" href="/account">星海社区</a>',
    );
    expect(signedOut.body).toMatch(/<title>.* - 星海社区<\/title>/);
    expect(signedOut.body).not.toContain('账号中心');
  });

  it('as the authenticator issuer and the passkey relying party', async () => {
    const u = await t.register();
    const setup = (
      await t.post(
        '/api/v1/auth/account/totp/setup',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(new URL(setup.otpauth_url).searchParams.get('issuer')).toBe(
      '星海社区',
    );
    const options = (
      await t.post(
        '/api/v1/auth/account/passkeys/options',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(options.rp.name).toBe('星海社区');
  });

  it('as the name of the center itself in a device request', async () => {
    const started = (await t.post('/api/v1/auth/device/start', {})).json().data;
    const u = await t.register();
    const shown = await t.post(
      '/api/v1/auth/device/inspect',
      { user_code: started.user_code },
      u.token,
    );
    expect(shown.json().data).toMatchObject({
      client_id: 'account-center',
      display_name: '星海社区',
    });
  });
});

describe('a SITE_NAME with HTML in it', () => {
  it('is escaped in the title and in data-site-name', async () => {
    const odd = await createTestApp({ SITE_NAME: `<b>"Tom & Jerry's"</b>` });
    try {
      const page = (await odd.get('/login', undefined, BROWSER)).body;
      expect(page).toContain(
        '<title>登录 - &lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;</title>',
      );
      expect(page).toContain(
        'data-site-name="&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"',
      );
      expect(page).not.toContain('<b>');
    } finally {
      await odd.close();
    }
  });
});
