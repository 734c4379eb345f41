import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';

/** The `data-*` attributes of the page's <body>, by name. */
async function bodyData(
  app: TestApp,
  path: string,
): Promise<Record<string, string>> {
  const tag = /<body([^>]*)>/.exec((await app.get(path)).body)?.[1] ?? '';
  return Object.fromEntries(
    [...tag.matchAll(/ data-([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/**
 * The sign-up page learns from its HTML whether the e-mail code is required
 * (REGISTER_REQUIRES_EMAIL_CODE), so it can mark the field 选填 only when it is optional.
 */
let optional: TestApp;
let required: TestApp;
beforeAll(async () => {
  [optional, required] = await Promise.all([
    createTestApp(),
    createTestApp({ REGISTER_REQUIRES_EMAIL_CODE: 'true' }),
  ]);
});
afterAll(async () => {
  await optional?.close();
  await required?.close();
});

describe('/register tells the page whether the e-mail code is required', () => {
  it('says optional by default and required when REGISTER_REQUIRES_EMAIL_CODE is on, matching what register accepts', async () => {
    expect(await bodyData(optional, '/register')).toMatchObject({
      page: 'register',
      'email-code': 'optional',
    });
    expect(await bodyData(required, '/register')).toMatchObject({
      page: 'register',
      'email-code': 'required',
    });
    // The mark agrees with the API: without a code, only the first server signs the user up.
    const username = uniqueName('codeless');
    const body = {
      username,
      password: 'correct horse battery',
      email: `${username}@example.com`,
    };
    expect(
      (await optional.post('/api/v1/auth/register', body)).statusCode,
    ).toBe(200);
    const refused = await required.post('/api/v1/auth/register', {
      ...body,
      username: uniqueName('codeless'),
    });
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：email_code' },
    ]);
  });

  it('other pages carry no such attribute', async () => {
    const login = await bodyData(optional, '/login');
    expect(login.page).toBe('login');
    expect(login).not.toHaveProperty('email-code');
  });
});
