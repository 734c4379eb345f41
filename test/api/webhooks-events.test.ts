import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { createApp } from '../helpers/oauth.js';
import {
  centerWithReceiver,
  WebhookReceiver,
} from '../helpers/webhook-receiver.js';

/** Webhooks (docs/api.md §15.2), to a receiver that verifies them with `standardwebhooks`. */
const clock = testClock();
const A = '/api/v1/auth';
const W = `${A}/admin/webhooks`;
let t: TestApp;
let admin: TestUser;
let receiver: WebhookReceiver;
let endpointId: string;

beforeAll(async () => {
  ({ t, admin, receiver, endpointId } = await centerWithReceiver(
    () => clock.now,
    { description: 'forum' },
  ));
});
beforeEach(async () => {
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  clock.restore();
});

const ban = (body: Record<string, unknown>) =>
  t.post(`${A}/admin/users/ban`, body, admin.token);
const deliveries = async (id = endpointId) =>
  (await t.get(`${W}/deliveries?id=${id}`, admin.token)).json().data
    .deliveries as Array<Record<string, unknown>>;
const eventFor = (type: string, uid: number) =>
  waitFor(`${type} of ${uid}`, 20_000, () =>
    receiver.ofType(type).find((e) => e.data.uid === uid),
  );

describe('delivery', () => {
  it('tells of sign-ups, profile changes and logout everywhere', async () => {
    const u = await t.register();
    const created = await eventFor('user.created', u.uid);
    expect(created.data).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: u.username,
      email: u.email,
    });
    await t.post(`${A}/account/profile`, { display_name: 'New Name' }, u.token);
    expect((await eventFor('user.updated', u.uid)).data).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: 'New Name',
    });
    expect(
      (await t.post(`${A}/logout`, { all: true }, u.token)).statusCode,
    ).toBe(200);
    expect((await eventFor('user.sessions_revoked', u.uid)).data).toEqual({
      uid: u.uid,
      username: u.username,
      cause: 'logout_all',
    });
    const order = receiver.events
      .filter((e) => e.data.uid === u.uid)
      .map((e) => e.type);
    expect(order).toEqual([
      'user.created',
      'user.updated',
      'user.sessions_revoked',
    ]);
  });

  it('tells of an application switched off and on by its owner', async () => {
    const owner = await t.register();
    const app = await createApp(t, owner);
    expect(
      (
        await t.post(
          `${A}/apps/disable`,
          { client_id: app.client_id, enabled: false },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.post(
          `${A}/apps/disable`,
          { client_id: app.client_id, enabled: true },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor('app.enabled', 20_000, () =>
      receiver
        .ofType('app.enabled')
        .find((e) => e.data.client_id === app.client_id),
    );
    const order = receiver.events
      .filter((e) => e.data.client_id === app.client_id)
      .map((e) => [e.type, e.data.by]);
    expect(order).toEqual([
      ['app.disabled', 'owner'],
      ['app.enabled', 'owner'],
    ]);
  });

  it('sends a test event, and sends a delivery again on request', async () => {
    expect(
      (await t.post(`${W}/test`, { id: endpointId }, admin.token)).statusCode,
    ).toBe(200);
    const test = await waitFor(
      'test event',
      20_000,
      () => receiver.ofType('webhook.test')[0],
    );
    const row = (await deliveries()).find((d) => d.event === 'webhook.test')!;
    await waitFor(
      'test delivered',
      20_000,
      async () =>
        (await deliveries()).find((d) => d.id === row.id)!.status ===
        'delivered',
    );
    expect(
      (await t.post(`${W}/redeliver`, { id: row.id }, admin.token)).statusCode,
    ).toBe(200);
    await waitFor(
      'test again',
      20_000,
      () => receiver.ofType('webhook.test').length === 2,
    );
    // The same message id: a receiver that already handled it can tell.
    expect(receiver.ofType('webhook.test')[1]!.id).toBe(test.id);
    expect(
      failure(await t.post(`${W}/redeliver`, { id: 999_999_999 }, admin.token)),
    ).toEqual([404, refusal('投递记录不存在')]);
    expect(
      failure(await t.post(`${W}/test`, { id: 'wh_nope' }, admin.token)),
    ).toEqual([404, refusal('Webhook 不存在')]);
  });

  it('sends only the types an endpoint asked for', async () => {
    const picky = new WebhookReceiver();
    const added = (
      await t.post(
        W,
        { url: await picky.start(), events: ['user.unbanned'] },
        admin.token,
      )
    ).json().data;
    picky.trust(added.secret);
    try {
      const u = await t.register();
      await ban({ username: u.username, banned: true });
      await ban({ username: u.username, banned: false });
      await waitFor('unbanned at the picky endpoint', 20_000, () =>
        picky.ofType('user.unbanned').find((e) => e.data.uid === u.uid),
      );
      await eventFor('user.unbanned', u.uid);
      expect(picky.events.map((e) => e.type)).toEqual(['user.unbanned']);
    } finally {
      await t.post(`${W}/remove`, { id: added.id }, admin.token);
      await picky.close();
    }
  });

  it('sends nothing for a change that did not happen', async () => {
    const u = await t.register();
    const before = (await deliveries()).length;
    expect(
      failure(await ban({ username: u.username, banned: true, until: 'soon' })),
    ).toEqual([400, refusal('参数错误：until')]);
    expect(
      failure(await ban({ username: 'nobody_at_all', banned: true })),
    ).toEqual([404, refusal('用户不存在')]);
    expect((await deliveries()).length).toBe(before);
  });
});
