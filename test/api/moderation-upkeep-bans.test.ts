import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../helpers/clock.js';
import type { TestApp, TestUser } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import {
  centerWithReceiver,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';
import { createLogger } from '../../src/platform/logging/log.js';
import { Housekeeping } from '../../src/features/housekeeping/housekeeping.js';

/** Timed bans that end by themselves, settled deliveries kept 30 days, switching an endpoint back on (docs/webhooks.md). */
const clock = testClock();
const A = '/api/v1/auth';
const W = `${A}/admin/webhooks`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;
let admin: TestUser;
let receiver: WebhookReceiver;
let endpointId: string;

beforeAll(async () => {
  ({ t, admin, receiver, endpointId } = await centerWithReceiver(
    () => clock.now,
    { events: ['user.banned', 'user.unbanned'] },
  ));
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

/** A housekeeping round of its own instance, on the test's clock, over the service's database. */
const keeper = () =>
  new Housekeeping(
    t.runtime.storage,
    { reload: async () => undefined },
    () => clock.now,
    createLogger('silent'),
  );
const deliveries = async (id: string) =>
  (await t.get(`${W}/deliveries?id=${id}`, admin.token)).json().data
    .deliveries as Array<Record<string, unknown>>;
const unbannedOf = (uid: number) =>
  receiver.ofType('user.unbanned').filter((e) => e.data.uid === uid);

describe('a timed ban that ends', () => {
  it('is announced as user.unbanned once, by housekeeping, though no one signs in, even with two instances', async () => {
    const u = await t.register();
    const until = new Date(clock.now + HOUR).toISOString();
    expect(
      (
        await t.post(
          `${A}/admin/users/ban`,
          { username: u.username, banned: true, reason: 'spam', until },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor('user.banned', 20_000, () =>
      receiver.ofType('user.banned').find((e) => e.data.uid === u.uid),
    );
    // Before the end, a round lifts nothing.
    await keeper().run();
    expect((await t.runtime.storage.users.findById(u.uid))!.banned).toBe(true);

    clock.now += 2 * HOUR;
    await Promise.all([keeper().run(), keeper().run()]);
    await keeper().run();
    const event = await waitFor(
      'user.unbanned',
      20_000,
      () => unbannedOf(u.uid)[0],
    );
    expect(event.data).toEqual({ uid: u.uid, username: u.username });
    const stored = (await t.runtime.storage.users.findById(u.uid))!;
    expect([stored.banned, stored.banReason, stored.bannedUntil]).toEqual([
      false,
      '',
      null,
    ]);
    // Every delivery to the endpoint has settled: the event was queued once.
    await waitFor('settled', 20_000, async () =>
      (await deliveries(endpointId)).every((d) => d.status !== 'pending'),
    );
    expect(unbannedOf(u.uid)).toHaveLength(1);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('is not announced again after an admin lifted it, nor for a permanent ban', async () => {
    const early = await t.register();
    const forever = await t.register();
    await t.post(
      `${A}/admin/users/ban`,
      {
        username: early.username,
        banned: true,
        until: new Date(clock.now + HOUR).toISOString(),
      },
      admin.token,
    );
    await t.post(
      `${A}/admin/users/ban`,
      { username: early.username, banned: false },
      admin.token,
    );
    await t.post(
      `${A}/admin/users/ban`,
      { username: forever.username, banned: true },
      admin.token,
    );
    await waitFor('the admin unban', 20_000, () => unbannedOf(early.uid)[0]);
    clock.now += 2 * HOUR;
    await keeper().run();
    await waitFor('settled', 20_000, async () =>
      (await deliveries(endpointId)).every((d) => d.status !== 'pending'),
    );
    expect(unbannedOf(early.uid)).toHaveLength(1);
    expect(unbannedOf(forever.uid)).toHaveLength(0);
    expect((await t.runtime.storage.users.findById(forever.uid))!.banned).toBe(
      true,
    );
  });
});

describe('settled deliveries', () => {
  it('are deleted 30 days after they were written; newer ones stay', async () => {
    const old = await t.register();
    await t.post(
      `${A}/admin/users/ban`,
      { username: old.username, banned: true },
      admin.token,
    );
    await waitFor('old delivered', 20_000, async () =>
      (await deliveries(endpointId)).find((d) => d.status === 'delivered'),
    );
    const oldIds = (await deliveries(endpointId)).map((d) => d.id);
    clock.now += 29 * DAY;
    admin = await t.admin();
    const recent = await t.register();
    await t.post(
      `${A}/admin/users/ban`,
      { username: recent.username, banned: true },
      admin.token,
    );
    await waitFor(
      'recent delivered',
      20_000,
      async () =>
        (await deliveries(endpointId)).length > oldIds.length &&
        (await deliveries(endpointId)).every((d) => d.status !== 'pending'),
    );
    clock.now += 2 * DAY;
    admin = await t.admin();
    await keeper().run();
    const left = await deliveries(endpointId);
    expect(left.length).toBeGreaterThan(0);
    expect(left.filter((d) => oldIds.includes(d.id))).toEqual([]);
  });
});
