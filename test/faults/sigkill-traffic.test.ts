import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type RunningServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  PASSWORD,
  prepareTraffic,
  send,
  startTraffic,
  verifyAcknowledged,
  type Traffic,
} from './traffic.js';

/**
 * SIGKILL under mixed traffic, three times in a row at random moments, restarting on the same
 * SQLite file each time: every change answered 200 is there, no authorization code is
 * honoured twice, and the webhook outbox neither loses an acknowledged ban nor announces a
 * change that did not commit.
 */
const AUTH = '/api/v1/auth';
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'ac-fault-kill-'));
const receiver = new WebhookReceiver();
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop(5_000);
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the center says of `username` at sign-in: 200, 403 (banned) or 401 (no such account). */
async function signInStatus(base: string, username: string): Promise<number> {
  return (
    await send(base, 'POST', `${AUTH}/login`, { username, password: PASSWORD })
  ).status;
}

describe('SIGKILL under traffic', () => {
  it('three kills at random moments lose nothing acknowledged and honour nothing twice', {
    timeout: 240_000,
  }, async () => {
    const dbFile = join(dir, 'db.sqlite');
    const env = {
      DATABASE_URL: `sqlite:${dbFile}`,
      WEBHOOK_ALLOW_PRIVATE: 'on',
      LOG_LEVEL: 'warn',
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
      const traffic = startTraffic({ bases: [server.url], setup, workers: 6 });
      rounds.push(traffic);
      // A random moment: after 20 to 80 answered requests, with others in flight.
      const after = 20 + Math.floor(Math.random() * 60);
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
    // No acknowledged ban is lost by the outbox…
    await waitFor(
      'every acknowledged ban at the receiver',
      60_000,
      () => {
        const seen = new Set(
          receiver.ofType('user.banned').map((e) => e.data.username),
        );
        return banned.every((u) => seen.has(u));
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
    const file = new Database(dbFile, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      file.close();
    }
  });
});
