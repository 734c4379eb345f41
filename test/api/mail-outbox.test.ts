import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';
import { testClock } from '../helpers/clock.js';
import { fetchJson } from '../helpers/net.js';
import {
  SERVER_SECRET,
  startServer,
  type RunningServer,
} from '../helpers/server.js';
import { SmtpSink } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Every e-mail goes through the mail outbox (docs/how-it-works.md): a request never waits on
 * the mail server, and a message written while it is down or hanging is sent once it answers,
 * by this instance or by the next one started on the same database.
 */
const A = '/api/v1/auth';
/** What "answers at once" means here: far below any SMTP time limit. */
const QUICK_MS = 2_000;
const RETRY_LOGGED = 'e-mail not sent, tried again later';

const sinks: SmtpSink[] = [];
const apps: TestApp[] = [];
const servers: RunningServer[] = [];
const ws = cliWorkspace('ac-mail-');
let restoreClock: (() => void) | undefined;

afterEach(async () => {
  for (const s of servers.splice(0))
    if (s.child.exitCode === null && s.child.signalCode === null)
      s.child.kill('SIGKILL');
  for (const a of apps.splice(0)) await a.close();
  for (const s of sinks.splice(0)) await s.stop();
  restoreClock?.();
  restoreClock = undefined;
});
afterAll(() => ws.dispose());

function downSink(): SmtpSink {
  const sink = new SmtpSink();
  sinks.push(sink);
  return sink;
}

async function timed<T>(
  request: () => Promise<T>,
): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await request();
  return { answer, ms: performance.now() - started };
}

describe('the mail server is down', () => {
  it('send_code still answers at once; the code is delivered once the server is back, and works', async () => {
    const clock = testClock();
    restoreClock = clock.restore;
    const sink = downSink();
    const t = await createTestApp(
      { SMTP_URL: await sink.reserve(), LOG_LEVEL: 'warn' },
      { now: () => clock.now },
    );
    apps.push(t);
    const u = await t.register();

    const { answer, ms } = await timed(() =>
      t.post(`${A}/send_code`, { email: u.email, purpose: 'login' }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(ms).toBeLessThan(QUICK_MS);
    // The center tried, was refused, and keeps the message for a later try.
    await waitFor('a failed try in the log', 10_000, () =>
      t.log.text().includes(RETRY_LOGGED),
    );
    expect(sink.countTo(u.email)).toBe(0);

    await sink.start();
    clock.now += 60_000;
    const code = await sink.codeFor(u.email, 10_000);
    const signedIn = await t.post(`${A}/login_by_code`, {
      email: u.email,
      code,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // Sent once: the delivered message left the queue.
    clock.now += 3_600_000;
    await t.mailSent();
    expect(sink.countTo(u.email)).toBe(1);
  });

  it('a sign-in from a new browser does not wait for a server that never answers; the notice follows once it does', {
    timeout: 60_000,
  }, async () => {
    const clock = testClock();
    restoreClock = clock.restore;
    const sink = downSink();
    await sink.reserve();
    await sink.hang();
    const t = await createTestApp(
      { SMTP_URL: sink.url(), LOG_LEVEL: 'warn' },
      { now: () => clock.now },
    );
    apps.push(t);
    const u = await t.register();
    const login = (userAgent: string) =>
      timed(() =>
        t.app.inject({
          method: 'POST',
          url: `${A}/login`,
          payload: { username: u.username, password: u.password },
          headers: { 'user-agent': userAgent },
        }),
      );
    // The first sign-in is the account's precedent and sends nothing.
    expect((await login('Familiar Browser/1.0')).answer.statusCode).toBe(200);

    const { answer, ms } = await login('Unfamiliar Browser/2.0');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(ms).toBeLessThan(QUICK_MS);
    await waitFor(
      'a connection to the mail server',
      10_000,
      () => sink.hungConnections > 0,
    );

    // The server comes back; the hung try ends at its own time limit and the notice goes again.
    await sink.answer();
    await waitFor('the hung try to give up', 30_000, () =>
      t.log.text().includes(RETRY_LOGGED),
    );
    clock.now += 60_000;
    await waitFor('the new sign-in notice', 10_000, () =>
      sink.subjectsTo(u.email).some((s) => s.includes('新设备登录提醒')),
    );
    expect(sink.textsTo(u.email).at(-1)).toContain('Unfamiliar Browser/2.0');
  });
});

describe('queued mail outlives the process', () => {
  it('a code queued by an instance killed while the server was down is sent by the next one on the same database', {
    timeout: 120_000,
  }, async () => {
    const db = await ws.freshDatabase('mail');
    const sink = downSink();
    const first = await startServer({
      DATABASE_URL: db,
      SMTP_URL: await sink.reserve(),
    });
    servers.push(first);
    const username = `mail_${process.pid}`;
    const email = `${username}@example.com`;
    expect(
      (
        await fetchJson(first.base, 'POST', `${A}/register`, {
          username,
          password: 'password123',
          email,
        })
      ).status,
    ).toBe(200);
    const { answer, ms } = await timed(() =>
      fetchJson(first.base, 'POST', `${A}/send_code`, {
        email,
        purpose: 'login',
      }),
    );
    expect(answer.status).toBe(200);
    expect(ms).toBeLessThan(QUICK_MS);
    await waitFor('a failed try in the log', 10_000, () =>
      first.output().includes(RETRY_LOGGED),
    );
    first.child.kill('SIGKILL');
    await first.exited;

    await sink.start();
    // The next instance finds the message due (its clock a minute on) and sends it.
    const next = await createTestApp(
      { DATABASE_URL: db, JWT_SECRET: SERVER_SECRET, SMTP_URL: sink.url() },
      { now: () => Date.now() + 60_000 },
    );
    apps.push(next);
    const code = await sink.codeFor(email, 10_000);
    expect(
      (await next.post(`${A}/login_by_code`, { email, code })).statusCode,
    ).toBe(200);
    expect(sink.countTo(email)).toBe(1);
  });
});
