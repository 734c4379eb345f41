import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET, uniqueName } from '../helpers/app.js';
import { fetchJson } from '../helpers/net.js';
import {
  freePort,
  startServer,
  type RunningServer,
} from '../helpers/server.js';

/**
 * The example client of examples/device-login, run as a game developer would run it,
 * against the real server process, while a registered user approves its code.
 */

const ROOT = join(import.meta.dirname, '..', '..');
let server: RunningServer | undefined;
let base: string;
let dir: string;

const post = (path: string, body: unknown, token?: string) =>
  fetchJson(base, 'POST', `/api/v1/auth/${path}`, body, token);

/** Runs the example; `onCode` gets the user code as soon as the example prints it. */
function runExample(
  onCode: (userCode: string) => Promise<void>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['examples/device-login/index.mjs', '--base', base],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let seen = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = /enter the code: (\d{6})/.exec(stdout);
      if (m && !seen) {
        seen = true;
        onCode(m[1]!).catch((err) => {
          child.kill();
          reject(err);
        });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) return;
  dir = mkdtempSync(join(tmpdir(), 'ac-device-example-'));
  // The example prints verification_uri, so BASE_URL must be the server's real address.
  const port = String(await freePort());
  base = `http://127.0.0.1:${port}`;
  server = await startServer({
    PORT: port,
    BASE_URL: base,
    DATABASE_URL: `sqlite:${join(dir, 'db')}`,
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'warn',
  });
});

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The server here always runs on its own SQLite file; the PostgreSQL project has nothing to add.
describe.skipIf(!!process.env.TEST_DATABASE_URL)(
  'examples/device-login',
  () => {
    it('signs in once the user approves the printed code, and is refused when the user denies', async () => {
      const username = uniqueName('player');
      const reg = await post('register', {
        username,
        password: 'correct horse battery',
        email: `${username}@example.com`,
      });
      expect(reg.status).toBe(200);
      const token = reg.body.access_token as string;

      // Both runs in parallel: each waits one 5 s interval before its first poll.
      const [approved, denied] = await Promise.all([
        runExample(async (userCode) => {
          const res = await post(
            'device/approve',
            { user_code: userCode },
            token,
          );
          expect(res.status).toBe(200);
        }),
        runExample(async (userCode) => {
          const res = await post(
            'device/approve',
            { user_code: userCode, deny: true },
            token,
          );
          expect(res.status).toBe(200);
        }),
      ]);

      expect(approved.stdout).toContain(`${base}/device?user_code=`);
      expect(approved.stdout).toContain(
        `signed in as ${username} (uid ${reg.body.user.uid})`,
      );
      expect(approved.code, approved.stderr).toBe(0);

      expect(denied.stdout).not.toContain('signed in as');
      expect(denied.stderr).toContain('用户拒绝了授权');
      expect(denied.code).toBe(1);
    }, 60_000);
  },
);
