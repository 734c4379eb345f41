import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { call, rawPost, startServer, type RunningServer } from './server.js';

/**
 * The real process, killed without warning in the middle of a write load, restarted on the
 * same file: everything it answered 200 for is still there, and the file is intact.
 */
let dir: string;
const running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0))
    if (s.child.exitCode === null && s.child.signalCode === null)
      s.child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function start(db: string, env: Record<string, string> = {}) {
  const s = await startServer(db, env);
  running.push(s);
  return s;
}

let seq = 0;
const name = (p: string) => `${p}_${process.pid}_${++seq}`;

describe('crash safety', () => {
  it('loses no acknowledged account, application or revocation on SIGKILL', {
    timeout: 120_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'ac-crash-'));
    const db = join(dir, 'db.sqlite');
    const first = await start(db);
    const ownerName = name('owner');
    const owner = await call(first.base, 'POST', '/api/v1/auth/register', {
      username: ownerName,
      password: 'owner password 1',
      email: `${ownerName}@example.com`,
    });
    expect(owner.status).toBe(200);
    const ownerToken = owner.body.access_token as string;

    const accounts: Array<{ username: string; password: string }> = [];
    const apps: string[] = [];
    const revoked: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const kind = (w + i) % 3;
        if (kind === 0) {
          const username = name('load');
          const res = await call(first.base, 'POST', '/api/v1/auth/register', {
            username,
            password: 'load password 1',
            email: `${username}@example.com`,
          });
          if (res.status === 200)
            accounts.push({ username, password: 'load password 1' });
          if (res.status === 200 && res.body.access_token) {
            const out = await call(
              first.base,
              'POST',
              '/api/v1/auth/logout',
              { all: i % 2 === 0 },
              res.body.access_token as string,
            );
            if (out.status === 200)
              revoked.push(res.body.access_token as string);
          }
        } else {
          const res = await call(
            first.base,
            'POST',
            '/api/v1/auth/apps',
            {
              display_name: `Load ${w}-${i}`,
              redirect_uris: ['https://example.com/cb'],
            },
            ownerToken,
          );
          if (res.status === 200)
            apps.push((res.body.data as { client_id: string }).client_id);
        }
        if (first.child.signalCode !== null) return;
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    // Kill once a fair amount of work has been acknowledged, with requests still in flight.
    // After 20 s without that many, the kill comes anyway; the counts below still have to hold.
    await waitFor(
      '40 acknowledged writes',
      20_000,
      () => accounts.length + apps.length >= 40,
      20,
    ).catch(() => undefined);
    first.child.kill('SIGKILL');
    stop = true;
    await load;
    expect(await first.exited).toBe('SIGKILL');
    expect(accounts.length).toBeGreaterThan(3);
    expect(apps.length).toBeGreaterThan(3);

    const second = await start(db);
    for (const a of accounts) {
      const res = await call(second.base, 'POST', '/api/v1/auth/login', {
        username: a.username,
        password: a.password,
      });
      expect(res.status, `account ${a.username}`).toBe(200);
    }
    const list = await call(
      second.base,
      'GET',
      '/api/v1/auth/apps',
      undefined,
      ownerToken,
    );
    expect(list.status).toBe(200);
    const listed = new Set(
      (list.body.data as { apps: Array<{ client_id: string }> }).apps.map(
        (a) => a.client_id,
      ),
    );
    for (const id of apps) expect(listed.has(id), `app ${id}`).toBe(true);
    for (const token of revoked)
      expect(
        (await call(second.base, 'GET', '/api/v1/auth/me', undefined, token))
          .status,
      ).toBe(401);
    expect(
      (await call(second.base, 'GET', '/api/v1/auth/me', undefined, ownerToken))
        .status,
    ).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const file = new Database(db, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      file.close();
    }
  });

  it('SIGTERM lets slow requests in flight finish with 200, then exits 0', {
    timeout: 60_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'ac-term-'));
    // One hashing thread makes each login wait its turn, so the batch is surely still running at the signal.
    const server = await start(join(dir, 'db.sqlite'), {
      UV_THREADPOOL_SIZE: '1',
    });
    // Several accounts: the sign-in throttle allows only a few password checks at once per account and address.
    const usernames = [name('term'), name('term'), name('term'), name('term')];
    for (const username of usernames) {
      const reg = await call(server.base, 'POST', '/api/v1/auth/register', {
        username,
        password: 'term password 1',
        email: `${username}@example.com`,
      });
      expect(reg.status).toBe(200);
    }
    // Each login costs an argon2 verification: a dozen together keep the server busy a while.
    const logins = Array.from({ length: 12 }, (_, i) =>
      rawPost(server.base, '/api/v1/auth/login', {
        username: usernames[i % 4],
        password: 'term password 1',
      }),
    );
    await Promise.all(logins.map((l) => l.sent));
    // A request sent after them and answered proves the server has read them (its event loop
    // stays free while hashing), so all twelve are in flight when the signal comes.
    // Fresh connections, so they are accepted no sooner than the logins' were.
    for (let i = 0; i < 2; i++)
      expect(
        (await rawPost(server.base, '/healthz', undefined, 'GET').answer)
          .status,
      ).toBe(200);
    const killedAt = Date.now();
    server.child.kill('SIGTERM');
    const answers = await Promise.all(logins.map((l) => l.answer));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    for (const a of answers) expect(typeof a.body.access_token).toBe('string');
    // The test is only meaningful if some of them were still running when the signal came.
    expect(answers.some((a) => a.at > killedAt)).toBe(true);
    expect(await server.exited).toBe(0);
    // Once closed, nothing listens any more.
    expect((await call(server.base, 'GET', '/healthz')).status).toBe(0);
  });
});
