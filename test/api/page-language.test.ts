import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const page = (path: string, headers: Record<string, string>) =>
  t.get(path, undefined, { accept: 'text/html', ...headers });

describe('the language of the pages', () => {
  it('is Chinese unless the browser prefers English', async () => {
    const plain = await page('/login', {});
    expect(plain.body).toContain('<html lang="zh-CN">');
    expect(plain.body).toContain('<title>登录 - 账号中心</title>');
    expect(plain.headers.vary).toContain('Accept-Language');
    const english = await page('/login', {
      'accept-language': 'en-GB,en;q=0.9',
    });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('<title>Sign in - Account Center</title>');
  });

  it('follows the q values, reads any Chinese as Simplified and ignores what it does not have', async () => {
    const lang = async (value: string) =>
      /<html lang="([^"]+)">/.exec(
        (await page('/register', { 'accept-language': value })).body,
      )?.[1];
    expect(await lang('fr-FR,en;q=0.8,zh-CN;q=0.5')).toBe('en');
    expect(await lang('en;q=0.4,zh-TW;q=0.9')).toBe('zh-CN');
    expect(await lang('de, fr')).toBe('zh-CN');
    expect(await lang('en;q=0, zh')).toBe('zh-CN');
    expect(await lang('*')).toBe('zh-CN');
    expect(await lang(';;;,q=,en;q=abc')).toBe('en');
  });

  it('is the stored choice first, whatever the browser says', async () => {
    const chosen = await page('/account', {
      'accept-language': 'en',
      cookie: 'other=1; lang=zh-CN',
    });
    expect(chosen.body).toContain('<html lang="zh-CN">');
    expect(chosen.body).toContain('<title>我的账号 - 账号中心</title>');
    const english = await page('/device', { cookie: 'lang=en' });
    expect(english.body).toContain(
      '<title>Device sign-in - Account Center</title>',
    );
    // An unknown or malformed choice falls back to the browser's language.
    expect(
      (await page('/device', { cookie: 'lang=fr', 'accept-language': 'en' }))
        .body,
    ).toContain('<html lang="en">');
    expect(
      (
        await page('/device', {
          cookie: 'lang=%E0%A4%A',
          'accept-language': 'en',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('covers the not-found page; the API still answers in Chinese', async () => {
    const missing = await page('/no-such-page', { 'accept-language': 'en' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(
      '<title>Page not found - Account Center</title>',
    );
    const api = await t.post(
      '/api/v1/auth/login',
      { username: 'nobody_here', password: 'wrong password' },
      undefined,
      { 'accept-language': 'en', cookie: 'lang=en' },
    );
    expect(api.json().msg).toBe('用户名或密码错误');
  });
});
