import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { isPostgresUrl } from '../helpers/db.js';
import { fetchJson } from '../helpers/net.js';
import { rawRequest } from '../helpers/raw-request.js';
import { startServer, waitFor, type RunningServer } from '../helpers/server.js';

// On the postgres project the server and the CLI share a fresh schema instead of a file.
const PG_BASE = isPostgresUrl(process.env.TEST_DATABASE_URL)
  ? process.env.TEST_DATABASE_URL
  : undefined;
const ws = cliWorkspace('ac-process-');
let db: string;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  db = await ws.freshDatabase('ac');
  server = await startServer({ DATABASE_URL: db, LOG_LEVEL: 'warn' });
  base = server.url;
});

afterAll(async () => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await ws.dispose();
});

const post = (path: string, body: unknown, token?: string) =>
  fetchJson(base, 'POST', path, body, token);
const me = (token: string) =>
  fetchJson(base, 'GET', '/api/v1/auth/me', undefined, token);

describe('the real process', () => {
  let token = '';
  const username = `proc_${process.pid}`;

  it('registers and answers me over HTTP', async () => {
    const res = await post('/api/v1/auth/register', {
      username,
      password: 'password123',
      email: `${username}@example.com`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    token = res.body.access_token;
    const m = await me(token);
    expect(m.status).toBe(200);
    expect(m.body.data).toMatchObject({
      username,
      roles: ['player'],
      app: 'account-center',
    });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('answers a body without a content type with 415', async () => {
    const { status, body } = await rawRequest(base, {
      path: '/api/v1/auth/login',
      body: JSON.stringify({ username, password: 'password123' }),
    }).answer;
    expect([status, body]).toEqual([
      415,
      { ok: false, msg: '请求体必须是 JSON' },
    ]);
  });

  // Six real CLI processes, each loading the whole service: on a busy 2-core runner that alone
  // can take longer than the default 30 s; the 5 s bounds below are what the test is about.
  it('runs the CLI against the same database; the server sees its changes within 5 s', {
    timeout: 90_000,
  }, async () => {
    const created = await ws.cli(db, [
      'user',
      'create',
      '--username',
      `cli_${process.pid}`,
      '--password',
      'password123',
      '--email',
      `cli_${process.pid}@example.com`,
      '--roles',
      'player,admin',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      username: `cli_${process.pid}`,
      roles: ['player', 'admin'],
    });
    const login = await post('/api/v1/auth/login', {
      username: `cli_${process.pid}`,
      password: 'password123',
    });
    expect(login.status).toBe(200);
    const adminToken = login.body.access_token;
    expect(
      (
        await fetchJson(
          base,
          'GET',
          `/api/v1/auth/admin/users?q=${username}`,
          undefined,
          adminToken,
        )
      ).status,
    ).toBe(200);

    const duplicate = await ws.cli(db, [
      'user',
      'create',
      '--username',
      `cli_${process.pid}`,
      '--password',
      'password123',
      '--email',
      `other_${process.pid}@example.com`,
    ]);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/username/);

    const roles = await ws.cli(db, ['user', 'roles', username, 'a,b']);
    expect(roles.code, roles.stderr).toBe(0);
    expect(JSON.parse(roles.stdout)).toMatchObject({
      username,
      roles: ['a', 'b'],
    });
    const started = Date.now();
    await waitFor('roles at me', 5_000, async () => {
      const { body } = await me(token);
      return JSON.stringify(body.data?.roles) === '["a","b"]';
    });

    const ban = await ws.cli(db, ['user', 'ban', username]);
    expect(ban.code, ban.stderr).toBe(0);
    expect(JSON.parse(ban.stdout)).toMatchObject({ username, banned: true });
    const banStarted = Date.now();
    await waitFor(
      'ban at me',
      5_000,
      async () => (await me(token)).status === 403,
    );
    expect(Date.now() - banStarted).toBeLessThan(5_000);
    expect((await me(token)).body).toEqual({ ok: false, msg: '账号已被封禁' });
    expect(Date.now() - started).toBeLessThan(12_000);

    const unban = await ws.cli(db, ['user', 'unban', username]);
    expect(unban.code, unban.stderr).toBe(0);
    await waitFor(
      'unban at me',
      5_000,
      async () => (await me(token)).status === 200,
    );

    const unknown = await ws.cli(db, ['user', 'ban', 'nobody_at_all']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('account-center: no such user');
  });

  it('migrate is idempotent on a live database', async () => {
    const res = await ws.cli(db, ['migrate']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('migrations applied');
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});

// Database-independent: run once, on the default project.
describe.skipIf(PG_BASE !== undefined)('the CLI', () => {
  it('exits 2 with usage on an unknown command', async () => {
    const res = await ws.cli(db, ['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown command: frobnicate');
    expect(res.stderr).toContain('usage: account-center');
  });

  it('exits 2 with usage on bad arguments', async () => {
    const cases = [
      ['user', 'create', '--username', 'x'],
      ['serve', '--port', '1'],
    ];
    for (const args of cases) {
      const res = await ws.cli(db, args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain('usage: account-center');
    }
    // A known command's bad argument is one line naming it (docs/api.md §10), without the usage text.
    const oneLine: Array<[string[], RegExp]> = [
      [
        ['user', 'roles', 'someone'],
        /^account-center: user roles U a,b: a comma-separated role list is required$/,
      ],
      [
        ['user', 'create', '--bogus', 'x'],
        /^account-center: user create: unknown option --bogus$/,
      ],
    ];
    for (const [args, line] of oneLine) {
      const res = await ws.cli(db, args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr.split('\n').filter(Boolean), args.join(' ')).toEqual([
        expect.stringMatching(line),
      ]);
    }
  });

  it('exits 2 on a configuration error', async () => {
    const res = await ws.cli(db, ['migrate'], {
      NODE_ENV: 'production',
      JWT_SECRET: '',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('JWT_SECRET is required');
  });

  it('prints usage on help', async () => {
    const res = await ws.cli(db, ['help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('usage: account-center');
  });
});
