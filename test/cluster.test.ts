import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  runCli,
  startServer,
  within,
  type RunningServer,
} from './helpers/server.js';

/** `serve --workers 2` on a SQLite file: one port, two processes, one view of sessions. */
const PASSWORD = 'correct horse battery';
const AUTH = '/api/v1/auth';

function workerPids(primary: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe('cluster mode (serve --workers 2)', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ac-cluster-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` };
    server = await startServer(
      { ...env, LIMIT_LOGIN_PAIR: '3/60' },
      ['--workers', '2'],
      2,
    );
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signedIn(): Promise<{ username: string; token: string }> {
    const username = `cl_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
    const res = await call(server.url, 'POST', `${AUTH}/register`, {
      username,
      password: PASSWORD,
      email: `${username}@example.com`,
    });
    expect(res.status).toBe(200);
    return { username, token: res.body.access_token };
  }

  it('a logout on one connection answers 401 on every following request, whichever worker serves it', async () => {
    const user = await signedIn();
    const before = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(server.url, 'GET', `${AUTH}/me`, undefined, user.token),
      ),
    );
    expect(before.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(
      (await call(server.url, 'POST', `${AUTH}/logout`, undefined, user.token))
        .status,
    ).toBe(200);
    for (let i = 0; i < 20; i++) {
      expect(
        (await call(server.url, 'GET', `${AUTH}/me`, undefined, user.token))
          .status,
      ).toBe(401);
    }
  });

  it('a ban on one worker answers 403 at once on the others', async () => {
    const user = await signedIn();
    const adminName = `cla_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
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
    const admin = await call(server.url, 'POST', `${AUTH}/login`, {
      username: adminName,
      password: PASSWORD,
    });
    // Load the user into both workers' caches first.
    await Promise.all(
      Array.from({ length: 6 }, () =>
        call(server.url, 'GET', `${AUTH}/me`, undefined, user.token),
      ),
    );
    expect(
      (
        await call(
          server.url,
          'POST',
          `${AUTH}/admin/users/ban`,
          { username: user.username, banned: true },
          admin.body.access_token,
        )
      ).status,
    ).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect(
        (await call(server.url, 'GET', `${AUTH}/me`, undefined, user.token))
          .status,
      ).toBe(403);
    }
  });

  it('counts the login rate limit once for all workers', async () => {
    const login = {
      username: `nobody_${process.pid}_${Math.floor(Math.random() * 1e6)}`,
      password: 'wrong password!',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await call(server.url, 'POST', `${AUTH}/login`, login)).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it('replaces a worker that dies and drains on SIGTERM', async () => {
    const primary = server.child.pid!;
    const [first] = workerPids(primary);
    expect(workerPids(primary)).toHaveLength(2);
    process.kill(first!, 'SIGKILL');
    await within(
      30_000,
      async () => {
        const now = workerPids(primary);
        return now.length === 2 && !now.includes(first!);
      },
      200,
    );
    await within(
      30_000,
      async () =>
        (await call(server.url, 'GET', '/healthz').catch(() => ({ status: 0 })))
          .status === 200,
      200,
    );
    expect(await server.stop()).toBe(0);
    expect(workerPids(primary)).toEqual([]);
  });
});
