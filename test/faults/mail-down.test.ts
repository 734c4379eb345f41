import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { SmtpSink } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';
import {
  PASSWORD,
  prepareTraffic,
  send,
  startTraffic,
  uniqueName,
} from './traffic.js';

/**
 * The mail server down under traffic: `send_code` answers at once all the same, the messages
 * wait in the mail outbox, and once the server is back each is delivered, once, within the
 * outbox's first retry (5 s) — by the same process, with no restart.
 */
const AUTH = '/api/v1/auth';
/** Far below any SMTP time limit: the request did not wait on the mail server. */
const QUICK_MS = 2_000;
const CODES = 20;

const dir = mkdtempSync(join(tmpdir(), 'ac-fault-mail-'));
const sink = new SmtpSink();
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop(5_000);
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the mail server down', () => {
  it('send_code answers at once; each code is delivered once when it is back', {
    timeout: 120_000,
  }, async () => {
    const dbFile = join(dir, 'db.sqlite');
    const env = {
      DATABASE_URL: `sqlite:${dbFile}`,
      SMTP_URL: await sink.reserve(),
      LOG_LEVEL: 'warn',
    };
    server = await startServer(env);
    const base = server.url;
    const setup = await prepareTraffic(env, base);
    const traffic = startTraffic({ bases: [base], setup });

    const emails = Array.from(
      { length: CODES },
      () => `${uniqueName('mail')}@example.com`,
    );
    const answers = await Promise.all(
      emails.map((email) =>
        send(base, 'POST', `${AUTH}/send_code`, { email, purpose: 'register' }),
      ),
    );
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.ms).toBeLessThan(QUICK_MS);
    }
    // The center tried, was refused, and keeps the messages for a later try.
    await waitFor('a refused try in the log', 10_000, () =>
      server!.output().includes('e-mail not sent, tried again later'),
    );
    expect(sink.messages).toHaveLength(0);
    // Requests keep being answered promptly while the mail server is down.
    const more = await send(base, 'POST', `${AUTH}/send_code`, {
      email: `${uniqueName('mail')}@example.com`,
      purpose: 'register',
    });
    expect(more.status).toBe(200);
    expect(more.ms).toBeLessThan(QUICK_MS);

    const upAt = Date.now();
    await sink.start();
    const codes = await Promise.all(
      emails.map((email) => sink.codeFor(email, 40_000)),
    );
    const deliveredMs = Date.now() - upAt;
    // Each queued code works, and the traffic went on meanwhile.
    for (const [i, email] of emails.slice(0, 3).entries()) {
      const username = uniqueName('coded');
      const reg = await send(base, 'POST', `${AUTH}/register`, {
        username,
        password: PASSWORD,
        email,
        email_code: codes[i],
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    }
    await traffic.stop();
    expect(
      traffic.records.filter((r) => r.reply.status === 200).length,
    ).toBeGreaterThan(20);
    expect(
      traffic.records.filter((r) => r.reply.status >= 500).map((r) => r.op),
    ).toEqual([]);

    // Sent once: the outbox empties, and no address got a second message.
    await waitFor(
      'the mail outbox to empty',
      20_000,
      () => {
        const db = new Database(dbFile, { readonly: true });
        try {
          const row = db.prepare('select count(*) as n from mail_outbox').get();
          return (row as { n: number }).n === 0;
        } finally {
          db.close();
        }
      },
      200,
    );
    for (const email of emails) expect(sink.countTo(email)).toBe(1);
    // Within the first retry of the outbox (5 s), with some slack for a loaded machine.
    expect(deliveredMs).toBeLessThan(15_000);
  });
});
