import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { HangingServer } from '../helpers/hanging-server.js';
import { createApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Deliveries to endpoints that never answer do not hold up the others (docs/webhooks.md,
 * "Fair delivery"): a ban reaches a healthy webhook endpoint within seconds while dozens of
 * back-channel logout requests hang.
 */
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
/** 40 apps in all, each account within the per-owner cap on apps with a back-channel address. */
const ATTACKERS = 8;
const APPS_EACH = 5;
/** A healthy endpoint gets its event in well under this; before, it waited for rounds of 10 s timeouts. */
const WITHIN_MS = 5_000;

let t: TestApp;
let admin: TestUser;
let as: oauth.AuthorizationServer;
let receiver: WebhookReceiver;
let endpointId: string;
const hanging = new HangingServer();

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER, WEBHOOK_ALLOW_PRIVATE: 'on' });
  admin = await t.admin();
  as = await discover(t, ISSUER);
  receiver = new WebhookReceiver();
  const added = await t.post(
    `${A}/admin/webhooks`,
    { url: await receiver.start(), events: ['user.banned'] },
    admin.token,
  );
  expect(added.statusCode, added.body).toBe(200);
  ({ id: endpointId } = added.json().data);
  receiver.trust(added.json().data.secret);
});
afterAll(async () => {
  // Dropping the hanging connections first lets the service stop without waiting out its timeouts.
  await hanging.close();
  await t.close();
  await receiver.close();
});

/** An account with APPS_EACH apps whose back-channel address never answers, signed in to each. */
async function attacker(base: string, n: number): Promise<TestUser> {
  const user = await t.register();
  for (let i = 0; i < APPS_EACH; i++) {
    const app = await createApp(t, user, {
      redirect_uris: [CB],
      backchannel_logout_uri: `${base}/bcl/${n}/${i}`,
    });
    await signInWithCode(t, as, user, app, CB);
  }
  return user;
}

describe('a ban while many back-channel endpoints hang', () => {
  it('reaches the healthy webhook endpoint within seconds, once', async () => {
    const base = await hanging.start();
    const attackers = await Promise.all(
      Array.from({ length: ATTACKERS }, (_, n) => attacker(base, n)),
    );
    for (const a of attackers)
      expect(
        (await t.post(`${A}/logout`, { all: true }, a.token)).statusCode,
      ).toBe(200);
    await waitFor(
      'logout requests hanging',
      10_000,
      () => hanging.received >= 10,
    );

    const cheater = await t.register();
    const banned = await t.post(
      `${A}/admin/users/ban`,
      { username: cheater.username, banned: true, reason: 'cheating' },
      admin.token,
    );
    expect(banned.statusCode).toBe(200);
    const event = await waitFor(
      'user.banned at the healthy endpoint',
      WITHIN_MS,
      () =>
        receiver.ofType('user.banned').find((e) => e.data.uid === cheater.uid),
    );
    expect(event.data).toMatchObject({ uid: cheater.uid, reason: 'cheating' });

    const deliveries = (
      await t.get(
        `${A}/admin/webhooks/deliveries?id=${endpointId}`,
        admin.token,
      )
    ).json().data.deliveries;
    await waitFor(
      'the delivery settled',
      WITHIN_MS,
      async () =>
        (
          await t.get(
            `${A}/admin/webhooks/deliveries?id=${endpointId}`,
            admin.token,
          )
        ).json().data.deliveries[0]?.status === 'delivered',
    );
    expect(deliveries).toHaveLength(1);
    expect(receiver.ofType('user.banned')).toHaveLength(1);
  });
});
