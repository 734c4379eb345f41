import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';

import { authorizeBase, startAuthorizeApp } from './oidc-authorize-setup.js';

let t: TestApp;
let conf: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  ({ t, conf } = await startAuthorizeApp(() => clock));
});
afterAll(async () => {
  await t.close();
});

const base = authorizeBase(() => conf);

describe('authorization endpoint: failures of ours', () => {
  it('a database failure answers the error page with 500, then recovers', async () => {
    const apps = t.runtime.storage.apps;
    const original = apps.findById.bind(apps);
    apps.findById = () => Promise.reject(new Error('database is down'));
    try {
      const res = await authorizeGet(t, base());
      expect([
        res.statusCode,
        res.headers.location,
        res.headers['x-frame-options'],
      ]).toEqual([500, undefined, 'DENY']);
      expect(res.body).toContain('服务器内部错误');
      expect(res.body).not.toContain('database is down');
    } finally {
      apps.findById = original;
    }
    expect(location(await authorizeGet(t, base())).pathname).toBe('/login');
  });
});

describe('browser session and consent helpers', () => {
  it('POST /oauth/session keeps a first-party token in an HttpOnly cookie; /end clears it', async () => {
    const person = await t.register();
    const res = await t.post('/oauth/session', undefined, person.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, data: {} });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      new RegExp(`^ac_session=${person.token.replace(/\./g, '\\.')};`),
    );
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Secure/); // BASE_URL is https here
    expect(cookie).toMatch(/Max-Age=\d+/);
    const end = await t.post('/oauth/session/end');
    expect(String(end.headers['set-cookie'])).toMatch(
      /^ac_session=;.*Max-Age=0/,
    );
  });

  it('refuses tokens that are not first-party, missing or bad', async () => {
    expect((await t.post('/oauth/session')).statusCode).toBe(401);
    expect((await t.post('/oauth/session', undefined, 'x.y.z')).json()).toEqual(
      { ok: false, msg: '令牌无效或已过期' },
    );
  });

  it('interaction and consent: JSON only, a session, a real ticket', async () => {
    const person = await t.register();
    const ticket = ticketOf(
      location(await authorizeGet(t, base(), person.token)),
    );
    expect(
      (await pagesPost(t, '/oauth/interaction', { ticket })).statusCode,
    ).toBe(401);
    expect(
      (await pagesPost(t, '/oauth/consent', { ticket, decision: 'allow' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await pagesPost(
          t,
          '/oauth/interaction',
          { ticket: 'forged' },
          person.token,
        )
      ).json(),
    ).toEqual({ ok: false, msg: '授权请求已失效，请返回应用重新登录' });
    expect(
      (
        await pagesPost(
          t,
          '/oauth/consent',
          { ticket, decision: 'maybe' },
          person.token,
        )
      ).statusCode,
    ).toBe(400);
    const form = await t.app.inject({
      method: 'POST',
      url: '/oauth/consent',
      payload: `ticket=${encodeURIComponent(ticket)}&decision=allow`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `ac_session=${person.token}`,
      },
    });
    expect(form.statusCode).toBe(415);
  });
});
