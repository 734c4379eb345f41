import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { authorizeGet } from '../helpers/oidc-pages.js';
import {
  authorizeBase,
  CB,
  startAuthorizeApp,
} from './oidc-authorize-setup.js';

let t: TestApp;
let dev: TestUser;
let conf: CreatedApp;
let two: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  ({ t, dev, conf } = await startAuthorizeApp(() => clock));
  two = await createApp(t, dev, {
    redirect_uris: [CB, 'https://rp.example.com/other'],
  });
});
afterAll(async () => {
  await t.close();
});

const base = authorizeBase(() => conf);

/** Checks the page answer: 400 HTML under the pages' headers, never a Location. */
function expectErrorPage(
  res: Awaited<ReturnType<typeof authorizeGet>>,
  text: string,
) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  );
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.body).toContain(text);
}

describe('authorization endpoint: errors shown on a page, never redirected', () => {
  it('unknown, reserved, disabled or missing client', async () => {
    expectErrorPage(
      await authorizeGet(t, base({ client_id: 'no-such-app' })),
      '未知的应用',
    );
    expectErrorPage(
      await authorizeGet(t, base({ client_id: 'account-center' })),
      '未知的应用',
    );
    const { client_id: _, ...noClient } = base();
    expectErrorPage(
      await authorizeGet(t, noClient),
      '授权请求缺少参数：client_id',
    );
    const off = await createApp(t, dev, { redirect_uris: [CB] });
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id, enabled: false },
      dev.token,
    );
    expectErrorPage(
      await authorizeGet(t, base({ client_id: off.client_id })),
      '该应用已被停用',
    );
  });

  it('a callback that is not registered exactly, or omitted while several are', async () => {
    for (const uri of [
      'https://evil.example.com/cb',
      `${CB}/`,
      `${CB}?x=1`,
      'https://RP.example.com/cb',
      'not a url',
    ]) {
      expectErrorPage(
        await authorizeGet(
          t,
          base({ redirect_uri: uri, response_type: 'token' }),
        ),
        '回调地址不在白名单内',
      );
    }
    const { redirect_uri: _, ...noRedirect } = base({
      client_id: two.client_id,
    });
    expectErrorPage(
      await authorizeGet(t, noRedirect),
      '授权请求缺少参数：redirect_uri',
    );
  });

  it('client_id or redirect_uri sent twice', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/oauth/authorize?client_id=${conf.client_id}&client_id=x&redirect_uri=${encodeURIComponent(CB)}`,
    });
    expectErrorPage(res, '授权请求的参数重复：client_id');
  });
});
