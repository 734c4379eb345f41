import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Without SITE_NAME the center is 账号中心 in Chinese and Account Center in English, on the
 * pages, in e-mails and in session lists, and the built-in game is 游戏 / Game, on /account and
 * /device alike. A SITE_NAME that is set is used as it is, in both languages.
 */
const A = '/api/v1/auth';
const EN = { 'accept-language': 'en-GB,en;q=0.9' };
const ZH = { 'accept-language': 'zh-CN,zh;q=0.9' };
const HTML = { accept: 'text/html' };
let plain: TestApp;
let named: TestApp;
beforeAll(async () => {
  [plain, named] = await Promise.all([
    createTestApp(),
    createTestApp({ SITE_NAME: 'Starsea' }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain.close(), named.close()]);
});

async function loginCodeMail(t: TestApp, headers: Record<string, string>) {
  const u = await t.register();
  const before = t.smtp.countTo(u.email);
  expect(
    (
      await t.post(
        `${A}/send_code`,
        { email: u.email, purpose: 'login' },
        undefined,
        headers,
      )
    ).statusCode,
  ).toBe(200);
  await t.smtp.nextCodeFor(u.email, before);
  return {
    subject: t.smtp.subjectsTo(u.email).at(-1)!,
    text: t.smtp.textsTo(u.email).at(-1)!,
  };
}

describe("the center's name without SITE_NAME", () => {
  it('is Account Center on English pages, the server-rendered ones too, and 账号中心 on Chinese ones', async () => {
    const en = (await plain.get('/login', undefined, { ...HTML, ...EN })).body;
    expect(en).toContain('<title>Sign in - Account Center</title>');
    expect(en).toContain('data-site-name="Account Center"');
    expect(en).not.toContain('账号中心');
    expect(
      (await plain.get('/nope', undefined, { ...HTML, ...EN })).body,
    ).toContain('<title>Page not found - Account Center</title>');
    const signedOut = await plain.app.inject({
      method: 'GET',
      url: '/oauth/end_session',
      headers: EN,
    });
    expect(signedOut.body).toContain(
      '<a class="brand" href="/account">Account Center</a>',
    );
    expect(signedOut.body).not.toContain('账号中心');
    const zh = (await plain.get('/login', undefined, { ...HTML, ...ZH })).body;
    expect(zh).toContain('<title>登录 - 账号中心</title>');
    expect(zh).toContain('data-site-name="账号中心"');
  });

  it('is Account Center in English mail and 账号中心 in Chinese mail', async () => {
    const en = await loginCodeMail(plain, EN);
    expect(en.subject).toBe('[Account Center] Sign-in code');
    expect(en.text).toMatch(/\nAccount Center\s*$/);
    expect(en.text).not.toMatch(/[\u4e00-\u9fff]/);
    const zh = await loginCodeMail(plain, ZH);
    expect(zh.subject).toBe('【账号中心】登录验证码');
    expect(zh.text).toMatch(/\n账号中心\s*$/);
  });

  it("names the center and the game in the session list's language", async () => {
    const u = await plain.register();
    const game = (
      await plain.post(`${A}/game_token`, undefined, u.token)
    ).json().access_token as string;
    expect(game).toBeTruthy();
    const names = async (headers: Record<string, string>) =>
      (
        (await plain.get(`${A}/account/sessions`, u.token, headers)).json().data
          .sessions as Array<{ app: string; app_name: string }>
      )
        .map((s) => [s.app, s.app_name])
        .sort();
    expect(await names(EN)).toEqual([
      ['account-center', 'Account Center'],
      ['game', 'Game'],
    ]);
    expect(await names(ZH)).toEqual([
      ['account-center', '账号中心'],
      ['game', '游戏'],
    ]);
  });

  it("names the game and the center in the device request's language", async () => {
    const u = await plain.register();
    const ask = async (clientId: string, headers: Record<string, string>) => {
      const started = (
        await plain.post(
          `${A}/device/start`,
          clientId ? { client_id: clientId } : {},
        )
      ).json().data;
      const shown = (
        await plain.post(
          `${A}/device/inspect`,
          { user_code: started.user_code },
          u.token,
          headers,
        )
      ).json().data.display_name;
      const approved = (
        await plain.post(
          `${A}/device/approve`,
          { user_code: started.user_code },
          u.token,
          headers,
        )
      ).json().data.display_name;
      return [shown, approved];
    };
    expect(await ask('game', EN)).toEqual(['Game', 'Game']);
    expect(await ask('game', ZH)).toEqual(['游戏', '游戏']);
    expect(await ask('', EN)).toEqual(['Account Center', 'Account Center']);
    expect(await ask('', ZH)).toEqual(['账号中心', '账号中心']);
  });
});

describe('a SITE_NAME that is set', () => {
  it('is used as it is on English pages, mail and session lists', async () => {
    const page = (await named.get('/login', undefined, { ...HTML, ...EN }))
      .body;
    expect(page).toContain('<title>Sign in - Starsea</title>');
    expect(page).toContain('data-site-name="Starsea"');
    expect((await loginCodeMail(named, EN)).subject).toBe(
      '[Starsea] Sign-in code',
    );
    const u = await named.register();
    const sessions = (
      await named.get(`${A}/account/sessions`, u.token, EN)
    ).json().data.sessions as Array<{ app_name: string }>;
    expect(sessions.map((s) => s.app_name)).toEqual(['Starsea']);
  });
});
