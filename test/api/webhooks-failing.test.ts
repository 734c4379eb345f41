import { describe, expect, it } from 'vitest';
import { createTestApp, failure, refusal } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { A, W, webhookCenter } from './webhooks-setup.js';

/** Webhooks (docs/api.md §15.2), to a receiver that verifies them with `standardwebhooks`. */
const env = webhookCenter();
const { clock, ban, deliveries, addReceiver } = env;

describe('an endpoint failing for 3 days', () => {
  it('is switched off, its delivery marked failed, the dashboard says so, and it can be switched back on', async () => {
    const { receiver: down, added } = await addReceiver(['user.banned']);
    down.failNext(Number.MAX_SAFE_INTEGER);
    try {
      const u = await env.t.register();
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
      env.admin = await env.t.admin();
      const listed = (await env.t.get(W, env.admin.token))
        .json()
        .data.webhooks.find((w: { id: string }) => w.id === added.id);
      expect(listed).toMatchObject({
        enabled: false,
        disabled_at: Math.floor(clock.now / 1000),
      });
      const dashboard = (
        await env.t.get(`${A}/admin/dashboard`, env.admin.token)
      ).json().data;
      expect(dashboard.switched_off_webhooks).toEqual([
        { id: added.id, url: added.url, disabled_at: listed.disabled_at },
      ]);

      // Switched back on (docs/api.md §15.2): the notice goes and deliveries resume.
      down.failNext(0);
      const enabled = await env.t.post(
        `${W}/update`,
        { id: added.id, enabled: true },
        env.admin.token,
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
        (await env.t.get(`${A}/admin/dashboard`, env.admin.token)).json().data
          .switched_off_webhooks,
      ).toEqual([]);
      const other = await env.t.register();
      await ban({ username: other.username, banned: true });
      await waitFor('delivered again', 20_000, () =>
        down.ofType('user.banned').find((e) => e.data.uid === other.uid),
      );
      const audit = (
        await env.t.get(
          `${A}/admin/audit?action=webhook.update&target=${added.id}`,
          env.admin.token,
        )
      ).json().data.entries;
      expect(audit[0]).toMatchObject({
        actor: env.admin.username,
        detail: { enabled: true },
      });
    } finally {
      await env.t.post(`${W}/remove`, { id: added.id }, env.admin.token);
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
