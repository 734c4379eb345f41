import { describe, expect, it } from 'vitest';
import { failure, refusal } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { createApp } from '../helpers/oauth.js';
import { A, W, webhookCenter } from './webhooks-setup.js';

/** Webhooks (docs/api.md §15.2), to a receiver that verifies them with `standardwebhooks`. */
const env = webhookCenter();
const { ban, deliveries, eventFor, addReceiver } = env;

describe('delivery', () => {
  it('tells of sign-ups, profile changes and logout everywhere', async () => {
    const u = await env.t.register();
    const created = await eventFor('user.created', u.uid);
    expect(created.data).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: u.username,
      email: u.email,
    });
    await env.t.post(
      `${A}/account/profile`,
      { display_name: 'New Name' },
      u.token,
    );
    expect((await eventFor('user.updated', u.uid)).data).toEqual({
      uid: u.uid,
      username: u.username,
      display_name: 'New Name',
    });
    expect(
      (await env.t.post(`${A}/logout`, { all: true }, u.token)).statusCode,
    ).toBe(200);
    expect((await eventFor('user.sessions_revoked', u.uid)).data).toEqual({
      uid: u.uid,
      username: u.username,
      cause: 'logout_all',
    });
    const order = env.receiver.events
      .filter((e) => e.data.uid === u.uid)
      .map((e) => e.type);
    expect(order).toEqual([
      'user.created',
      'user.updated',
      'user.sessions_revoked',
    ]);
  });

  it('tells of an application switched off and on by its owner', async () => {
    const owner = await env.t.register();
    const app = await createApp(env.t, owner);
    expect(
      (
        await env.t.post(
          `${A}/apps/disable`,
          { client_id: app.client_id, enabled: false },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await env.t.post(
          `${A}/apps/disable`,
          { client_id: app.client_id, enabled: true },
          owner.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor('app.enabled', 20_000, () =>
      env.receiver
        .ofType('app.enabled')
        .find((e) => e.data.client_id === app.client_id),
    );
    const order = env.receiver.events
      .filter((e) => e.data.client_id === app.client_id)
      .map((e) => [e.type, e.data.by]);
    expect(order).toEqual([
      ['app.disabled', 'owner'],
      ['app.enabled', 'owner'],
    ]);
  });

  it('sends a test event, and sends a delivery again on request', async () => {
    expect(
      (await env.t.post(`${W}/test`, { id: env.endpointId }, env.admin.token))
        .statusCode,
    ).toBe(200);
    const test = await waitFor(
      'test event',
      20_000,
      () => env.receiver.ofType('webhook.test')[0],
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
      (await env.t.post(`${W}/redeliver`, { id: row.id }, env.admin.token))
        .statusCode,
    ).toBe(200);
    await waitFor(
      'test again',
      20_000,
      () => env.receiver.ofType('webhook.test').length === 2,
    );
    // The same message id: a receiver that already handled it can tell.
    expect(env.receiver.ofType('webhook.test')[1]!.id).toBe(test.id);
    expect(
      failure(
        await env.t.post(
          `${W}/redeliver`,
          { id: 999_999_999 },
          env.admin.token,
        ),
      ),
    ).toEqual([404, refusal('投递记录不存在')]);
    expect(
      failure(
        await env.t.post(`${W}/test`, { id: 'wh_nope' }, env.admin.token),
      ),
    ).toEqual([404, refusal('Webhook 不存在')]);
  });

  it('sends only the types an endpoint asked for', async () => {
    const { receiver: picky, added } = await addReceiver(['user.unbanned']);
    try {
      const u = await env.t.register();
      await ban({ username: u.username, banned: true });
      await ban({ username: u.username, banned: false });
      await waitFor('unbanned at the picky endpoint', 20_000, () =>
        picky.ofType('user.unbanned').find((e) => e.data.uid === u.uid),
      );
      await eventFor('user.unbanned', u.uid);
      expect(picky.events.map((e) => e.type)).toEqual(['user.unbanned']);
    } finally {
      await env.t.post(`${W}/remove`, { id: added.id }, env.admin.token);
      await picky.close();
    }
  });

  it('sends nothing for a change that did not happen', async () => {
    const u = await env.t.register();
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
