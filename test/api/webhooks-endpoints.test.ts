import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import {
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
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
});
