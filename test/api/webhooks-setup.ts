import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import { testClock, type TestClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait.js';
import {
  centerWithReceiver,
  type ReceivedEvent,
  WebhookReceiver,
} from '../helpers/webhook-receiver.js';

export const A = '/api/v1/auth';
export const W = `${A}/admin/webhooks`;

/** What the webhook files share: an app on a hand-moved clock, with one endpoint to `receiver`. */
export interface WebhookCenter {
  clock: TestClock;
  t: TestApp;
  /** A fresh administrator for each test. */
  admin: TestUser;
  receiver: WebhookReceiver;
  endpointId: string;
  ban(body: Record<string, unknown>): ReturnType<TestApp['post']>;
  deliveries(id?: string): Promise<Array<Record<string, unknown>>>;
  /** The `type` event about user `uid`, once `receiver` has it. */
  eventFor(type: string, uid: number): Promise<ReceivedEvent>;
  /** A further endpoint, for `events` only, to a fresh receiver that trusts its secret. */
  addReceiver(
    events: string[],
  ): Promise<{ receiver: WebhookReceiver; added: { id: string; url: string } }>;
}

/** One such app shared by a test file's tests, closed after them. */
export function webhookCenter(): WebhookCenter {
  const env = {
    clock: testClock(),
    ban: (body) => env.t.post(`${A}/admin/users/ban`, body, env.admin.token),
    deliveries: async (id = env.endpointId) =>
      (await env.t.get(`${W}/deliveries?id=${id}`, env.admin.token)).json().data
        .deliveries,
    eventFor: (type, uid) =>
      waitFor(`${type} of ${uid}`, 20_000, () =>
        env.receiver.ofType(type).find((e) => e.data.uid === uid),
      ),
    addReceiver: async (events) => {
      const receiver = new WebhookReceiver();
      const added = (
        await env.t.post(
          W,
          { url: await receiver.start(), events },
          env.admin.token,
        )
      ).json().data;
      receiver.trust(added.secret);
      return { receiver, added };
    },
  } as WebhookCenter;
  beforeAll(async () => {
    ({
      t: env.t,
      admin: env.admin,
      receiver: env.receiver,
      endpointId: env.endpointId,
    } = await centerWithReceiver(() => env.clock.now, {
      description: 'forum',
    }));
  });
  beforeEach(async () => {
    env.admin = await env.t.admin();
  });
  afterAll(async () => {
    await env.t.close();
    await env.receiver.close();
    env.clock.restore();
  });
  return env;
}
