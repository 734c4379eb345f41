import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import {
  PASSWORD,
  prepareTraffic,
  send,
  startTraffic,
  uniqueName,
} from './traffic.js';

/**
 * The disk under a SQLite database fills up (a small tmpfs, filled by another file): writes
 * get a clear 503 with `Retry-After`, reads keep working, the file stays intact, and writes
 * work again once space returns, with no restart. Mounting needs root; elsewhere the case is
 * skipped with a warning.
 */
const AUTH = '/api/v1/auth';
const dir = mkdtempSync(join(tmpdir(), 'ac-fault-disk-'));
const filler = join(dir, 'filler');

function mountTmpfs(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    console.warn(
      '\n!!! cannot mount a tmpfs: the disk-full case is SKIPPED !!!\n',
    );
    return false;
  }
}
const mounted = mountTmpfs();

/** Writes to the file system until it has no space left. */
function fillDisk(): void {
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop(5_000);
  if (mounted) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!mounted)('the disk full under SQLite', () => {
  it('writes get 503, reads work, the file is intact, writes resume', {
    timeout: 120_000,
  }, async () => {
    const dbFile = join(dir, 'db.sqlite');
    const env = { DATABASE_URL: `sqlite:${dbFile}`, LOG_LEVEL: 'warn' };
    server = await startServer(env);
    const base = server.url;
    const setup = await prepareTraffic(env, base);
    const username = uniqueName('reader');
    const reg = await send(base, 'POST', `${AUTH}/register`, {
      username,
      password: PASSWORD,
      email: `${username}@example.com`,
    });
    expect(reg.status).toBe(200);
    const token = reg.body.access_token as string;

    fillDisk();
    const traffic = startTraffic({ bases: [base], setup });
    const writes = await waitFor('a refused write', 20_000, async () => {
      const name = uniqueName('full');
      const r = await send(base, 'POST', `${AUTH}/register`, {
        username: name,
        password: PASSWORD,
        email: `${name}@example.com`,
      });
      expect(r.status, server!.output().slice(-1500)).not.toBe(500);
      return r.status === 503 && r;
    });
    expect(writes.body).toEqual({ ok: false, msg: '数据库不可用' });
    expect(Number(writes.retryAfter)).toBeGreaterThanOrEqual(1);
    // Reads keep working.
    const me = await send(base, 'GET', `${AUTH}/me`, undefined, token);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.data.username).toBe(username);
    const apps = await send(
      base,
      'GET',
      `${AUTH}/apps`,
      undefined,
      setup.adminToken,
    );
    expect(apps.status).toBe(200);
    expect((await send(base, 'GET', '/healthz')).status).toBe(200);
    const fullAt = Date.now();
    await waitFor(
      'some traffic on the full disk',
      10_000,
      () => traffic.records.filter((r) => r.reply.at > fullAt).length >= 20,
    );

    rmSync(filler);
    const resumed = await waitFor(
      'a write to succeed again',
      10_000,
      async () => {
        const name = uniqueName('again');
        const r = await send(base, 'POST', `${AUTH}/register`, {
          username: name,
          password: PASSWORD,
          email: `${name}@example.com`,
        });
        return r.status === 200 && name;
      },
    );
    await traffic.stop();
    expect(server.child.exitCode ?? server.child.signalCode).toBeNull();
    const broken = traffic.records.filter(
      (r) => r.reply.status === 0 || r.reply.status === 500,
    );
    expect(broken.map((r) => `${r.op} ${r.reply.status}`)).toEqual([]);
    expect(traffic.records.some((r) => r.reply.status === 503)).toBe(true);
    const login = await send(base, 'POST', `${AUTH}/login`, {
      username: resumed,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);

    expect(await server.stop()).toBe(0);
    const file = new Database(dbFile, { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      file.close();
    }
  });
});
