import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, injectFetch } from '../helpers/oidc-client.js';
import { LogoutReceiver } from '../helpers/logout-receiver.js';

/** OpenID Connect Back-Channel Logout 1.0 (docs/api.md §12.8), to a relying party that verifies with `jose`. */
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let forum: CreatedApp;
let forumReceiver: LogoutReceiver;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER, WEBHOOK_ALLOW_PRIVATE: 'on' });
  dev = await t.register();
  as = await discover(t, ISSUER);
  forum = await createApp(t, dev, {
    display_name: '论坛',
    redirect_uris: [CB],
  });
  // The wiki registers no back-channel address: it is never called.
  forumReceiver = new LogoutReceiver(ISSUER, forum.client_id);
  const uri = await forumReceiver.start(
    as.jwks_uri!,
    injectFetch(t.app) as typeof fetch,
  );
  const updated = await t.post(
    `${A}/apps/update`,
    {
      client_id: forum.client_id,
      backchannel_logout_uri: uri,
      backchannel_logout_session_required: true,
    },
    dev.token,
  );
  expect(updated.statusCode, updated.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await forumReceiver.close();
});

describe('registration', () => {
  it('discovery advertises back-channel logout with sid', async () => {
    expect(as.backchannel_logout_supported).toBe(true);
    expect(as.backchannel_logout_session_supported).toBe(true);
    expect(as.claims_supported).toContain('sid');
  });

  it('the apps API stores, returns and clears the fields', async () => {
    const app = await createApp(t, dev, {
      backchannel_logout_uri: 'https://rp.example.com/bcl?x=1',
      backchannel_logout_session_required: true,
    });
    expect(app).toMatchObject({
      backchannel_logout_uri: 'https://rp.example.com/bcl?x=1',
      backchannel_logout_session_required: true,
    });
    const plain = await createApp(t, dev);
    expect(plain).toMatchObject({
      backchannel_logout_uri: '',
      backchannel_logout_session_required: false,
    });
    const cleared = await t.post(
      `${A}/apps/update`,
      { client_id: app.client_id, backchannel_logout_uri: '' },
      dev.token,
    );
    expect(cleared.json().data).toMatchObject({
      backchannel_logout_uri: '',
      backchannel_logout_session_required: true,
    });
    const listed = (await t.get(`${A}/apps`, dev.token))
      .json()
      .data.apps.find(
        (a: { client_id: string }) => a.client_id === forum.client_id,
      );
    expect(listed.backchannel_logout_uri).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/backchannel-logout$/,
    );
  });

  it('refuses an address that is not absolute http(s) with a 400', async () => {
    for (const uri of [
      'ftp://rp.example.com/x',
      '/relative',
      'https://rp.example.com/x#frag',
      'http://rp.example.com/plain-http',
      'com.example.app:/cb',
    ]) {
      expect(
        failure(
          await t.post(
            `${A}/apps`,
            {
              display_name: 'Bad',
              redirect_uris: [CB],
              backchannel_logout_uri: uri,
            },
            dev.token,
          ),
        ),
        uri,
      ).toEqual([400, refusal('后台退出通知地址格式不正确')]);
      expect(
        failure(
          await t.post(
            `${A}/apps/update`,
            { client_id: forum.client_id, backchannel_logout_uri: uri },
            dev.token,
          ),
        ),
        uri,
      ).toEqual([400, refusal('后台退出通知地址格式不正确')]);
    }
  });
});

describe('apps with a back-channel address per owner', () => {
  const CAPPED = [400, refusal('设置后台退出通知地址的应用数量已达上限')];
  const bcl = (n: number | string) => `https://rp.example.com/bcl/${n}`;

  it('are at most 5 for an owner who is not an administrator, counted atomically', async () => {
    const owner = await t.register();
    for (let i = 0; i < 4; i++)
      await createApp(t, owner, {
        redirect_uris: [CB],
        backchannel_logout_uri: bcl(i),
      });
    // Fifty at once for the one place left: one is made, 49 refused.
    const racing = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.post(
          `${A}/apps`,
          {
            display_name: `Race ${i}`,
            redirect_uris: [CB],
            backchannel_logout_uri: bcl(i + 4),
          },
          owner.token,
        ),
      ),
    );
    expect(racing.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(racing.filter((r) => r.statusCode !== 200).map(failure)).toEqual(
      Array.from({ length: 49 }, () => CAPPED),
    );
    const plain = await createApp(t, owner, { redirect_uris: [CB] });
    expect(
      failure(
        await t.post(
          `${A}/apps/update`,
          { client_id: plain.client_id, backchannel_logout_uri: bcl('x') },
          owner.token,
        ),
      ),
    ).toEqual(CAPPED);
    const apps = (await t.get(`${A}/apps`, owner.token)).json().data
      .apps as CreatedApp[];
    expect(apps.filter((a) => a.backchannel_logout_uri !== '')).toHaveLength(5);
    // Changing the address of one that has one, or moving the place to another app, is fine.
    const first = apps.find((a) => a.backchannel_logout_uri === bcl(0))!;
    expect(
      (
        await t.post(
          `${A}/apps/update`,
          { client_id: first.client_id, backchannel_logout_uri: bcl('moved') },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          `${A}/apps/update`,
          { client_id: first.client_id, backchannel_logout_uri: '' },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          `${A}/apps/update`,
          { client_id: plain.client_id, backchannel_logout_uri: bcl('x') },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('are not capped for an administrator', async () => {
    const boss = await t.admin();
    for (let i = 0; i < 6; i++)
      await createApp(t, boss, {
        redirect_uris: [CB],
        backchannel_logout_uri: bcl(`admin-${i}`),
      });
  });
});
