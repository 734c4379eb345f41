import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import { cliWorkspace } from '../helpers/cli.js';
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

/** Timed bans that end by themselves, settled deliveries kept 30 days, switching an endpoint back on (docs/webhooks.md). */
const clock = testClock();
const A = '/api/v1/auth';
const W = `${A}/admin/webhooks`;
let t: TestApp;
let admin: TestUser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ t, admin, receiver } = await centerWithReceiver(() => clock.now, {
    events: ['user.banned', 'user.unbanned'],
  }));
});
// A fresh administrator's token each time: the tests move the clock by days.
beforeEach(async () => {
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  clock.restore();
});

const deliveries = async (id: string) =>
  (await t.get(`${W}/deliveries?id=${id}`, admin.token)).json().data
    .deliveries as Array<Record<string, unknown>>;
describe('switching an endpoint back on', () => {
  it('sends deliveries still to go to the new address after the address changed', async () => {
    const [before, after] = [new WebhookReceiver(), new WebhookReceiver()];
    const added = (
      await t.post(
        W,
        { url: await before.start(), events: ['user.banned'] },
        admin.token,
      )
    ).json().data;
    const newUrl = await after.start();
    after.trust(added.secret);
    before.failNext(Number.MAX_SAFE_INTEGER);
    try {
      const u = await t.register();
      await t.post(
        `${A}/admin/users/ban`,
        { username: u.username, banned: true },
        admin.token,
      );
      await waitFor(
        'first failure',
        20_000,
        async () => (await deliveries(added.id))[0]?.tries === 1,
      );
      expect(
        (
          await t.post(
            `${W}/update`,
            { id: added.id, url: newUrl },
            admin.token,
          )
        ).json().data.url,
      ).toBe(newUrl);
      clock.now += 5000;
      const event = await waitFor('delivered to the new address', 20_000, () =>
        after.ofType('user.banned').find((e) => e.data.uid === u.uid),
      );
      expect(event.data).toMatchObject({ uid: u.uid, username: u.username });
    } finally {
      await t.post(`${W}/remove`, { id: added.id }, admin.token);
      await before.close();
      await after.close();
    }
  });

  it('changes the other fields given, and refuses bad ones, unknown ids and non-admins', async () => {
    const added = (
      await t.post(W, { url: 'https://hooks.example.com/u' }, admin.token)
    ).json().data;
    const changed = await t.post(
      `${W}/update`,
      {
        id: added.id,
        url: 'https://hooks.example.com/v',
        description: ' forum ',
        events: ['user.deleted'],
        enabled: false,
      },
      admin.token,
    );
    expect(changed.json().data).toMatchObject({
      url: 'https://hooks.example.com/v',
      description: 'forum',
      events: ['user.deleted'],
      enabled: false,
      disabled_at: null,
    });
    expect(
      failure(
        await t.post(
          `${W}/update`,
          { id: added.id, events: ['user.exploded'] },
          admin.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：events')]);
    expect(
      failure(
        await t.post(
          `${W}/update`,
          { id: added.id, url: 'ftp://x.example/' },
          admin.token,
        ),
      ),
    ).toEqual([400, refusal('参数错误：url')]);
    expect(
      failure(
        await t.post(
          `${W}/update`,
          { id: 'wh_nope', enabled: true },
          admin.token,
        ),
      ),
    ).toEqual([404, refusal('Webhook 不存在')]);
    const someone = await t.register();
    expect(
      failure(
        await t.post(
          `${W}/update`,
          { id: added.id, enabled: true },
          someone.token,
        ),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
    await t.post(`${W}/remove`, { id: added.id }, admin.token);
  });
});

describe('webhook enable on the command line', () => {
  const ws = cliWorkspace('ac-webhook-enable-');
  afterAll(() => ws.dispose());

  it('switches an endpoint on and off, and names an unknown one', async () => {
    const db = await ws.freshDatabase('hooks');
    expect((await ws.cli(db, ['migrate'])).code).toBe(0);
    const added = await ws.cli(db, [
      'webhook',
      'add',
      '--url',
      'https://hooks.example.com/cli',
      '--disabled',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const id = JSON.parse(added.stdout).id as string;
    const on = await ws.cli(db, ['webhook', 'enable', id]);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({
      id,
      enabled: true,
      failing_since: null,
      disabled_at: null,
    });
    const off = await ws.cli(db, ['webhook', 'disable', id]);
    expect(JSON.parse(off.stdout)).toMatchObject({ id, enabled: false });
    const unknown = await ws.cli(db, ['webhook', 'enable', 'wh_nope']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/webhook/i);
  }, 180_000);
});
