import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  failure,
  refusal,
  createTestApp,
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

describe('webhook endpoints', () => {
  it('shows the secret once, lists endpoints without it, and removes them', async () => {
    const added = (
      await t.post(
        W,
        {
          url: 'https://hooks.example.com/a',
          events: ['user.banned', 'user.unbanned'],
        },
        admin.token,
      )
    ).json().data;
    expect(added).toMatchObject({
      url: 'https://hooks.example.com/a',
      description: '',
      events: ['user.banned', 'user.unbanned'],
      enabled: true,
    });
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await t.get(W, admin.token)).json().data.webhooks;
    expect(listed.find((w: { id: string }) => w.id === added.id)).toEqual({
      id: added.id,
      url: 'https://hooks.example.com/a',
      description: '',
      events: ['user.banned', 'user.unbanned'],
      enabled: true,
      failing_since: null,
      disabled_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect(
      (await t.post(`${W}/remove`, { id: added.id }, admin.token)).statusCode,
    ).toBe(200);
    expect(
      failure(await t.post(`${W}/remove`, { id: added.id }, admin.token)),
    ).toEqual([404, refusal('Webhook 不存在')]);
  });

  it('refuses bad addresses and unknown event types, and non-admins', async () => {
    for (const url of [
      'ftp://example.com/x',
      'not a url',
      'https://user:pw@example.com/',
    ]) {
      expect(failure(await t.post(W, { url }, admin.token)), url).toEqual([
        400,
        refusal('参数错误：url'),
      ]);
    }
    expect(
      failure(
        await t.post(
          W,
          { url: 'https://example.com/', events: ['user.exploded'] },
          admin.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：events')]);
    const someone = await t.register();
    expect(failure(await t.get(W, someone.token))).toEqual([
      403,
      refusal('需要管理员权限'),
    ]);
  });
});

describe('delivery', () => {
  it('sends a signed user.banned with the reason and end, then user.unbanned, in order', async () => {
    const u = await t.register();
    const until = new Date(clock.now + 3_600_000).toISOString();
    await ban({
      username: u.username,
      banned: true,
      reason: 'cheating',
      until,
    });
    await ban({ username: u.username, banned: false });
    const banned = await eventFor('user.banned', u.uid);
    expect(banned.data).toEqual({
      uid: u.uid,
      username: u.username,
      reason: 'cheating',
      until,
    });
    expect(Date.parse(banned.timestamp)).toBeGreaterThan(0);
    const unbanned = await eventFor('user.unbanned', u.uid);
    const order = receiver.events
      .filter((e) => e.data.uid === u.uid)
      .map((e) => e.type);
    expect(order).toEqual(['user.created', 'user.banned', 'user.unbanned']);
    expect(unbanned.id).not.toBe(banned.id);
    expect(receiver.rejected).toEqual([]);
    // Nothing secret travels in an event.
    expect(JSON.stringify(receiver.requests)).not.toMatch(
      /argon2|password_hash|whsec_/,
    );
  });

  it('retries a failing receiver after 5 s and 30 s, and shows the tries', async () => {
    // An endpoint of its own, for bans only: no other test's event takes one of its failures.
    const flaky = new WebhookReceiver();
    const added = (
      await t.post(
        W,
        { url: await flaky.start(), events: ['user.banned'] },
        admin.token,
      )
    ).json().data;
    flaky.trust(added.secret);
    const rows = async () => (await deliveries(added.id))[0]!;
    try {
      const u = await t.register();
      flaky.failNext(2);
      await ban({ username: u.username, banned: true, reason: 'spam' });
      await waitFor(
        'first try settled',
        20_000,
        async () => (await deliveries(added.id))[0]?.tries === 1,
      );
      expect(await rows()).toMatchObject({
        event: 'user.banned',
        status: 'pending',
        http_status: 500,
        tries: 1,
        response: 'not now',
        next_try_at: Math.floor((clock.now + 5000) / 1000),
      });
      clock.now += 5000;
      await waitFor(
        'second try settled',
        20_000,
        async () => (await rows()).tries === 2,
      );
      expect((await rows()).next_try_at).toBe(
        Math.floor((clock.now + 30_000) / 1000),
      );
      clock.now += 30_000;
      const event = await waitFor(
        'the event',
        20_000,
        () => flaky.ofType('user.banned')[0],
      );
      expect(event.data).toEqual({
        uid: u.uid,
        username: u.username,
        reason: 'spam',
        until: null,
      });
      await waitFor(
        'delivered',
        20_000,
        async () => (await rows()).status === 'delivered',
      );
      expect(await rows()).toMatchObject({
        status: 'delivered',
        http_status: 204,
        tries: 3,
        next_try_at: null,
      });
      expect(flaky.requests.map((r) => r.headers['webhook-id'])).toEqual(
        Array(3).fill(event.id),
      );
    } finally {
      await t.post(`${W}/remove`, { id: added.id }, admin.token);
      await flaky.close();
    }
  });

  it('sends user.roles_changed with the roles before and after', async () => {
    const u = await t.register();
    await t.post(
      `${A}/admin/users/roles`,
      { username: u.username, roles: ['player', 'vip'] },
      admin.token,
    );
    const event = await eventFor('user.roles_changed', u.uid);
    expect(event.data).toEqual({
      uid: u.uid,
      username: u.username,
      roles: ['player', 'vip'],
      previous_roles: ['player'],
    });
  });

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

describe('an endpoint failing for 3 days', () => {
  it('is switched off, its delivery marked failed, the dashboard says so, and it can be switched back on', async () => {
    const down = new WebhookReceiver();
    const added = (
      await t.post(
        W,
        { url: await down.start(), events: ['user.banned'] },
        admin.token,
      )
    ).json().data;
    down.trust(added.secret);
    down.failNext(Number.MAX_SAFE_INTEGER);
    try {
      const u = await t.register();
      await ban({ username: u.username, banned: true });
      await waitFor(
        'first failure',
        20_000,
        async () => (await deliveries(added.id))[0]?.tries === 1,
      );
      clock.now += 3 * 24 * 3_600_000;
      await waitFor(
        'given up',
        20_000,
        async () => (await deliveries(added.id))[0]?.status === 'failed',
      );
      admin = await t.admin();
      const listed = (await t.get(W, admin.token))
        .json()
        .data.webhooks.find((w: { id: string }) => w.id === added.id);
      expect(listed).toMatchObject({
        enabled: false,
        disabled_at: Math.floor(clock.now / 1000),
      });
      const dashboard = (
        await t.get(`${A}/admin/dashboard`, admin.token)
      ).json().data;
      expect(dashboard.switched_off_webhooks).toEqual([
        { id: added.id, url: added.url, disabled_at: listed.disabled_at },
      ]);

      // Switched back on (docs/api.md §15.2): the notice goes and deliveries resume.
      down.failNext(0);
      const enabled = await t.post(
        `${W}/update`,
        { id: added.id, enabled: true },
        admin.token,
      );
      expect(enabled.json()).toEqual({
        ok: true,
        data: {
          id: added.id,
          url: added.url,
          description: '',
          events: ['user.banned'],
          enabled: true,
          failing_since: null,
          disabled_at: null,
        },
      });
      expect(
        (await t.get(`${A}/admin/dashboard`, admin.token)).json().data
          .switched_off_webhooks,
      ).toEqual([]);
      const other = await t.register();
      await ban({ username: other.username, banned: true });
      await waitFor('delivered again', 20_000, () =>
        down.ofType('user.banned').find((e) => e.data.uid === other.uid),
      );
      const audit = (
        await t.get(
          `${A}/admin/audit?action=webhook.update&target=${added.id}`,
          admin.token,
        )
      ).json().data.entries;
      expect(audit[0]).toMatchObject({
        actor: admin.username,
        detail: { enabled: true },
      });
    } finally {
      await t.post(`${W}/remove`, { id: added.id }, admin.token);
      await down.close();
    }
  });
});

describe('private addresses', () => {
  it('are refused unless WEBHOOK_ALLOW_PRIVATE=on', async () => {
    const strict = await createTestApp({}, { now: () => clock.now });
    try {
      const boss = await strict.admin();
      const internal = [
        'http://127.0.0.1:8080/h',
        'http://10.1.2.3/h',
        'http://192.168.0.9/h',
        'http://169.254.169.254/latest',
        'http://[::1]/h',
        'http://localhost/h',
        'http://[::ffff:127.0.0.1]/h',
        'http://0.0.0.0/h',
      ];
      for (const url of internal) {
        expect(failure(await strict.post(W, { url }, boss.token)), url).toEqual(
          [400, refusal('参数错误：url')],
        );
      }
      expect(
        (
          await strict.post(
            W,
            { url: 'https://hooks.example.com/h' },
            boss.token,
          )
        ).statusCode,
      ).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
