import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';

/** The pages the OpenID endpoints render themselves follow the request's language (Chinese by default). */
let t: TestApp;
let dev: TestUser;
let rp: CreatedApp;
const CB = 'https://rp.example.com/cb';
const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };

beforeAll(async () => {
  t = await createTestApp();
  dev = await t.register();
  rp = await createApp(t, dev, { redirect_uris: [CB] });
});
afterAll(async () => {
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('OpenID pages in the request language', () => {
  it('the authorization error page', async () => {
    const url = `/oauth/authorize?response_type=code&client_id=${rp.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&scope=openid`;
    const zh = await page(url);
    expect(zh.statusCode).toBe(400);
    expect(zh.body).toContain('<html lang="zh-CN">');
    expect(zh.body).toContain('<h1>授权失败</h1>');
    expect(zh.body).toContain('回调地址不在白名单内');
    const en = await page(url, ENGLISH);
    expect(en.statusCode).toBe(400);
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('<h1>Authorization failed</h1>');
    expect(en.body).toContain(
      'The callback address is not registered for this application',
    );
    expect(/<main[\s\S]*<\/main>/.exec(en.body)?.[0]).not.toMatch(
      /[\u4e00-\u9fff]/,
    );
    const repeated = await page(`/oauth/authorize?client_id=a&client_id=b`, {
      cookie: 'lang=en',
    });
    expect(repeated.body).toContain(
      'A parameter of the authorization request is repeated: client_id',
    );
  });

  it('the sign-out confirmation and the signed-out page', async () => {
    const person = await t.register();
    const cookie = `ac_session=${person.token}; lang=en`;
    const ask = await page('/oauth/end_session', { cookie });
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('<html lang="en">');
    expect(ask.body).toContain('<h1>Sign out?</h1>');
    expect(ask.body).toContain(`You are signed in to`);
    expect(ask.body).toContain(`as <strong>${person.username}</strong>`);
    expect(ask.body).toMatch(/value="confirm">Sign out<\/button>/);
    expect(ask.body).toMatch(/value="cancel">Cancel<\/button>/);
    const done = await page('/oauth/end_session', { cookie: 'lang=en' });
    expect(done.body).toContain('<h1>Signed out</h1>');
    expect(done.body).toContain('>Sign in again</a>');
    const zh = await page('/oauth/end_session');
    expect(zh.body).toContain('<h1>已退出登录</h1>');
    expect(zh.body).toContain('>重新登录</a>');
  });

  it('a refusal of the sign-out endpoint', async () => {
    const en = await page(
      '/oauth/end_session?id_token_hint=not-a-token',
      ENGLISH,
    );
    expect(en.statusCode).toBe(400);
    expect(en.body).toContain('<h1>Sign-out failed</h1>');
    expect(en.body).toContain('id_token_hint is not valid');
    expect(en.body).toContain('Go back to the application and try again.');
  });
});
