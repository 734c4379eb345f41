import { describe, expect, it } from 'vitest';
import { failure, refusal } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { A, W, webhookCenter } from './webhooks-setup.js';

/** Webhooks (docs/api.md §15.2), to a receiver that verifies them with `standardwebhooks`. */
const env = webhookCenter();
const { clock, ban, deliveries, eventFor, addReceiver } = env;

describe('webhook endpoints', () => {
  it('shows the secret once, lists endpoints without it, and removes them', async () => {
    const added = (
      await env.t.post(
        W,
        {
          url: 'https://hooks.example.com/a',
          events: ['user.banned', 'user.unbanned'],
        },
        env.admin.token,
      )
    ).json().data;
    expect(added).toMatchObject({
      url: 'https://hooks.example.com/a',
      description: '',
      events: ['user.banned', 'user.unbanned'],
      enabled: true,
    });
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await env.t.get(W, env.admin.token)).json().data.webhooks;
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
      (await env.t.post(`${W}/remove`, { id: added.id }, env.admin.token))
        .statusCode,
    ).toBe(200);
    expect(
      failure(
        await env.t.post(`${W}/remove`, { id: added.id }, env.admin.token),
      ),
    ).toEqual([404, refusal('Webhook 不存在')]);
  });

  it('refuses bad addresses and unknown event types, and non-admins', async () => {
    for (const url of [
      'ftp://example.com/x',
      'not a url',
      'https://user:pw@example.com/',
    ]) {
      expect(
        failure(await env.t.post(W, { url }, env.admin.token)),
        url,
      ).toEqual([400, refusal('参数错误：url')]);
    }
    expect(
      failure(
        await env.t.post(
          W,
          { url: 'https://example.com/', events: ['user.exploded'] },
          env.admin.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：events')]);
    const someone = await env.t.register();
    expect(failure(await env.t.get(W, someone.token))).toEqual([
      403,
      refusal('需要管理员权限'),
    ]);
  });
});

describe('delivery', () => {
  it('sends a signed user.banned with the reason and end, then user.unbanned, in order', async () => {
    const u = await env.t.register();
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
    const order = env.receiver.events
      .filter((e) => e.data.uid === u.uid)
      .map((e) => e.type);
    expect(order).toEqual(['user.created', 'user.banned', 'user.unbanned']);
    expect(unbanned.id).not.toBe(banned.id);
    expect(env.receiver.rejected).toEqual([]);
    // Nothing secret travels in an event.
    expect(JSON.stringify(env.receiver.requests)).not.toMatch(
      /argon2|password_hash|whsec_/,
    );
  });

  it('retries a failing receiver after 5 s and 30 s, and shows the tries', async () => {
    // An endpoint of its own, for bans only: no other test's event takes one of its failures.
    const { receiver: flaky, added } = await addReceiver(['user.banned']);
    const rows = async () => (await deliveries(added.id))[0]!;
    try {
      const u = await env.t.register();
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
      await env.t.post(`${W}/remove`, { id: added.id }, env.admin.token);
      await flaky.close();
    }
  });

  it('sends user.roles_changed with the roles before and after', async () => {
    const u = await env.t.register();
    await env.t.post(
      `${A}/admin/users/roles`,
      { username: u.username, roles: ['player', 'vip'] },
      env.admin.token,
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
