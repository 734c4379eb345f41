import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { PrivatePostgres, privateServersAvailable } from './private-servers.js';
import {
  PASSWORD,
  prepareTraffic,
  send,
  startTraffic,
  verifyAcknowledged,
  WITH_OIDC,
  type Traffic,
} from './traffic.js';

/**
 * SIGKILL under mixed traffic, three times in a row at random moments, restarting on the same
 * database each time (an SQLite file, and a private PostgreSQL when the machine has one):
 * every change answered 200 is there; nothing single use answered 200 is honoured twice
 * (authorization codes of both flows, rotated OpenID Connect refresh tokens, whose reuse ends
 * their family, invite uses, CAPTCHA solutions); the webhook outbox neither loses an
 * acknowledged registration or ban nor announces a change that did not commit; the SQLite
 * file passes its integrity check.
 */
const AUTH = '/api/v1/auth';
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'ac-fault-kill-'));
const receivers: WebhookReceiver[] = [];
let server: RunningServer | undefined;
let pg: PrivatePostgres | undefined;
const pgUsable = privateServersAvailable().postgres;
afterAll(async () => {
  await server?.stop(5_000);
  for (const r of receivers) await r.close();
  await pg?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** What the center says of `username` at sign-in: 200, 403 (banned) or 401 (no such account). */
async function signInStatus(base: string, username: string): Promise<number> {
  return (
    await send(base, 'POST', `${AUTH}/login`, { username, password: PASSWORD })
  ).status;
}

/** Three kills under traffic on `databaseUrl`, each followed by every check; the last instance is stopped. */
async function killThreeTimes(databaseUrl: string): Promise<void> {
  const receiver = new WebhookReceiver();
  receivers.push(receiver);
  const env = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE: 'on',
    LOG_LEVEL: 'warn',
    // Registrations need an invite code and a solved CAPTCHA, both single use; the
    // cheapest proof of work keeps the traffic's pace.
    REGISTRATION: 'invite',
    CAPTCHA: 'altcha',
    CAPTCHA_COST: '1000',
  };
  const added = JSON.parse(
    await runCli(env, [
      'webhook',
      'add',
      '--url',
      await receiver.start(),
      '--events',
      'user.created,user.banned',
    ]),
  );
  receiver.trust(added.secret);
  server = await startServer(env);
  const setup = await prepareTraffic(env, server.url);
  const rounds: Traffic[] = [];

  for (let round = 0; round < ROUNDS; round++) {
    const traffic = startTraffic({
      bases: [server.url],
      setup,
      workers: 6,
      ops: WITH_OIDC,
    });
    rounds.push(traffic);
    // A random moment: after 40 to 160 answered requests, with others in flight (a
    // registration takes three: its invite code, its CAPTCHA and itself).
    const after = 40 + Math.floor(Math.random() * 120);
    await waitFor(
      'traffic before the kill',
      60_000,
      () =>
        traffic.records.filter((r) => r.reply.status === 200).length >= after,
    );
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    await traffic.stop();
    server = await startServer(env);
    // Everything acknowledged so far, in this round and the ones before, is there.
    for (const t of rounds)
      expect(
        await verifyAcknowledged(server.url, t, setup),
        `round ${round}`,
      ).toEqual([]);
  }

  const banned = rounds.flatMap((t) => t.banned);
  expect(banned.length).toBeGreaterThan(0);
  expect(rounds.flatMap((t) => t.exchanged).length).toBeGreaterThan(0);
  // Each kind of single-use thing was used up under traffic, so the checks above had some.
  const families = rounds.flatMap((t) => t.families.all);
  expect(families.flatMap((f) => f.rotated).length).toBeGreaterThan(0);
  const invites = rounds.flatMap((t) => t.extras.invites);
  expect(invites.some((i) => i.uses > 1 && i.tried.length > i.uses)).toBe(true);
  expect(invites.some((i) => i.admitted.length === i.uses)).toBe(true);
  expect(rounds.flatMap((t) => t.extras.captchas).length).toBeGreaterThan(0);
  // No acknowledged registration or ban is lost by the outbox…
  const registered = [
    ...rounds.flatMap((t) => t.accounts.map((a) => a.username)),
    ...banned,
  ];
  const seen = (type: string) =>
    new Set(receiver.ofType(type).map((e) => e.data.username));
  await waitFor(
    'every acknowledged registration and ban at the receiver',
    60_000,
    () => {
      const created = seen('user.created');
      const bans = seen('user.banned');
      return (
        registered.every((u) => created.has(u)) &&
        banned.every((u) => bans.has(u))
      );
    },
    200,
  );
  // …and nothing is announced that did not commit.
  for (const e of receiver.ofType('user.banned'))
    expect(await signInStatus(server.url, String(e.data.username))).toBe(403);
  for (const e of receiver.ofType('user.created'))
    expect(await signInStatus(server.url, String(e.data.username))).not.toBe(
      401,
    );
  expect(receiver.rejected).toEqual([]);

  expect(await server.stop()).toBe(0);
}

describe('SIGKILL under traffic', () => {
  it('three kills at random moments lose nothing acknowledged and honour nothing twice', {
    timeout: 180_000,
  }, async () => {
    const dbFile = join(dir, 'db.sqlite');
    await killThreeTimes(`sqlite:${dbFile}`);
    const file = new Database(dbFile, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      file.close();
    }
  });

  it.skipIf(!pgUsable)(
    'the same on PostgreSQL',
    { timeout: 180_000 },
    async () => {
      pg = await PrivatePostgres.create();
      await killThreeTimes(`${pg.url}?pool_max=4`);
    },
  );
});
