import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SITE_NAME: 'Starsea' });
});
afterAll(async () => {
  await t.close();
});

/** A fresh account asks for a sign-in code with `headers`: the subject and text of the mail that brought it. */
async function loginCodeMail(headers: Record<string, string>) {
  const u = await t.register();
  const before = t.smtp.countTo(u.email);
  expect(
    (
      await t.post(
        '/api/v1/auth/send_code',
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

describe('e-mails speak the language of the request that caused them', () => {
  it('an English browser gets an English code mail', async () => {
    const mail = await loginCodeMail({ 'accept-language': 'en-GB,en;q=0.9' });
    expect(mail.subject).toBe('[Starsea] Sign-in code');
    expect(mail.text).toMatch(
      /^Sign-in code: \d{6}\r?\nIt is valid for 10 minutes\./,
    );
    expect(mail.text).toMatch(/\nStarsea\s*$/);
    expect(mail.text).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('a Chinese browser, or one that names no language, gets a Chinese one', async () => {
    for (const headers of [
      { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
      {},
    ] as Array<Record<string, string>>) {
      const mail = await loginCodeMail(headers);
      expect(mail.subject).toBe('【Starsea】登录验证码');
      expect(mail.text).toMatch(/^你的登录验证码是 \d{6}，10 分钟内有效/);
    }
  });

  it("the language chosen on the pages (the lang cookie) outweighs the browser's", async () => {
    expect(
      (await loginCodeMail({ 'accept-language': 'zh-CN', cookie: 'lang=en' }))
        .subject,
    ).toBe('[Starsea] Sign-in code');
    expect(
      (await loginCodeMail({ 'accept-language': 'en', cookie: 'lang=zh-CN' }))
        .subject,
    ).toBe('【Starsea】登录验证码');
  });

  it('a notice goes out in the language of the change that caused it', async () => {
    const u = await t.register();
    const before = t.smtp.countTo(u.email);
    const changed = await t.post(
      '/api/v1/auth/account/password',
      { current_password: u.password, new_password: 'brand new password' },
      u.token,
      { 'accept-language': 'en' },
    );
    expect(changed.statusCode).toBe(200);
    await waitFor('the notice', 5000, () => t.smtp.countTo(u.email) > before);
    expect(t.smtp.subjectsTo(u.email).at(-1)).toBe(
      '[Starsea] Password changed',
    );
    const text = t.smtp.textsTo(u.email).at(-1)!;
    expect(text).toContain(
      `The password of your account ${u.username} was changed at `,
    );
    expect(text).toContain('The account has no passkeys.');
  });

  it('a new sign-in notice follows the language of the sign-in', async () => {
    const u = await t.register();
    const signIn = (remoteAddress: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress,
        payload: { username: u.username, password: u.password },
        headers,
      });
    // The account's first sign-in is its precedent, and sends nothing.
    expect(
      (await signIn('198.51.100.1', { 'user-agent': 'Familiar Browser/1.0' }))
        .statusCode,
    ).toBe(200);
    const before = t.smtp.countTo(u.email);
    expect(
      (
        await signIn('203.0.113.9', {
          'accept-language': 'en',
          'user-agent': 'Unfamiliar Browser/1.0',
        })
      ).statusCode,
    ).toBe(200);
    await waitFor('the notice', 5000, () => t.smtp.countTo(u.email) > before);
    expect(t.smtp.subjectsTo(u.email).at(-1)).toBe(
      '[Starsea] Sign-in from a new device',
    );
    expect(t.smtp.textsTo(u.email).at(-1)).toContain(
      'Browser: Unfamiliar Browser/1.0',
    );
  });
});
