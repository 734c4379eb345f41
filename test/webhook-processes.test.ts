import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import {
  call,
  runCli,
  startServer,
  type RunningServer,
} from './helpers/server.js';
import { waitFor } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

/**
 * Webhooks from real processes (docs/api.md §15.2): an event survives a SIGKILL right after
 * the change it announces, and two instances on one PostgreSQL schema send each event once.
 */
const PG = process.env.TEST_PG_URL;
const PASSWORD = 'correct horse battery';
const AUTH = '/api/v1/auth';
const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

let seq = 0;
const name = (p: string) => `${p}_${process.pid}_${++seq}`;

async function serve(env: Record<string, string>): Promise<RunningServer> {
  const s = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'on', ...env });
  cleanup.push(() =>
    s.child.exitCode === null && s.child.signalCode === null
      ? s.child.kill('SIGKILL')
      : undefined,
  );
  return s;
}

/** An administrator made with the CLI, signed in at `base`; and an endpoint for `receiver` added with the CLI. */
async function setUp(
  env: Record<string, string>,
  base: string,
  receiver: WebhookReceiver,
): Promise<string> {
  const adminName = name('adm');
  await runCli(env, [
    'user',
    'create',
    '--username',
    adminName,
    '--password',
    PASSWORD,
    '--email',
    `${adminName}@example.com`,
    '--roles',
    'player,admin',
  ]);
  const added = JSON.parse(
    await runCli(env, [
      'webhook',
      'add',
      '--url',
      await receiver.start(),
      '--events',
      'user.banned',
    ]),
  );
  receiver.trust(added.secret);
  const login = await call(base, 'POST', `${AUTH}/login`, {
    username: adminName,
    password: PASSWORD,
  });
  expect(login.status).toBe(200);
  return login.body.access_token as string;
}

async function register(base: string): Promise<string> {
  const username = name('u');
  expect(
    (
      await call(base, 'POST', `${AUTH}/register`, {
        username,
        password: PASSWORD,
        email: `${username}@example.com`,
      })
    ).status,
  ).toBe(200);
  return username;
}

describe('webhook delivery across processes', () => {
  it('delivers a ban made just before a SIGKILL once the service is back', {
    timeout: 180_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-webhook-crash-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      JWT_SECRET: 'multi-instance-secret-0123456789-abcdefghijkl',
      WEBHOOK_ALLOW_PRIVATE: 'on',
    };
    const receiver = new WebhookReceiver();
    cleanup.push(() => receiver.close());
    // Down until the crash: the first process cannot have delivered it.
    receiver.failNext(Number.MAX_SAFE_INTEGER);
    const first = await serve(env);
    const token = await setUp(env, first.base, receiver);
    const username = await register(first.base);
    expect(
      (
        await call(
          first.base,
          'POST',
          `${AUTH}/admin/users/ban`,
          { username, banned: true, reason: 'cheating' },
          token,
        )
      ).status,
    ).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    receiver.failNext(0);
    await serve(env);
    const event = await waitFor(
      'the ban at the receiver',
      60_000,
      () => receiver.ofType('user.banned')[0],
    );
    expect(event.data).toMatchObject({
      username,
      reason: 'cheating',
      until: null,
    });
  });

  it.skipIf(!PG)(
    'sends each event once from two instances on PostgreSQL',
    { timeout: 180_000 },
    async () => {
      const schema = await freshPostgresSchema(PG!);
      cleanup.push(() => schema.dispose());
      const env = {
        DATABASE_URL: schema.url,
        JWT_SECRET: 'multi-instance-secret-0123456789-abcdefghijkl',
        WEBHOOK_ALLOW_PRIVATE: 'on',
      };
      const receiver = new WebhookReceiver();
      cleanup.push(() => receiver.close());
      const a = await serve(env);
      const b = await serve(env);
      const token = await setUp(env, a.base, receiver);
      const users = await Promise.all(
        Array.from({ length: 20 }, (_, i) => register(i % 2 ? a.base : b.base)),
      );
      await Promise.all(
        users.map((username, i) =>
          call(
            i % 2 ? a.base : b.base,
            'POST',
            `${AUTH}/admin/users/ban`,
            { username, banned: true },
            token,
          ),
        ),
      );
      await waitFor(
        'every ban at the receiver',
        60_000,
        () =>
          new Set(receiver.events.map((e) => e.data.username)).size ===
          users.length,
      );
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(receiver.events.length).toBe(users.length);
    },
  );
});
