import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, waitFor, type RunningServer } from './helpers/server.js';

/**
 * `account-center serve | head -1`: once head has its line and quits, the log's output has no
 * reader. The lines logged at SIGTERM are still pending when the service is done; pino writes
 * those synchronously at exit and retried the broken pipe for ever, so the process never ended.
 */
let server: RunningServer | undefined;
let dir = '';
afterEach(async () => {
  if (
    server &&
    server.child.exitCode === null &&
    server.child.signalCode === null
  )
    server.child.kill('SIGKILL');
  await server?.exited;
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts serve, waits until its last start-up line is written, then closes the reading end of its stdout. */
async function serveWithReaderGone(
  args: string[],
  listeners: number,
  lastLine: string,
): Promise<RunningServer> {
  dir = mkdtempSync(join(tmpdir(), 'ac-broken-pipe-'));
  const running = await startServer(
    { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` },
    args,
    listeners,
  );
  server = running;
  // Lines written after the reader is gone fail asynchronously, which pino already handles; the
  // hang needs every line so far written, and the next ones pending at exit.
  await waitFor('the last start-up line', 20_000, () =>
    running.output().includes(lastLine),
  );
  running.child.stdout!.destroy();
  return running;
}

/** The exit code, or a failure when the process is still there `ms` after SIGTERM. */
async function exitWithin(
  s: RunningServer,
  ms: number,
): Promise<number | string> {
  s.child.kill('SIGTERM');
  await waitFor(
    'the process to exit after SIGTERM',
    ms,
    () => s.child.exitCode !== null || s.child.signalCode !== null,
  );
  return s.exited;
}

describe('serve exits promptly when nobody reads its output any more', () => {
  it('one process: SIGTERM → exit 0', async () => {
    const s = await serveWithReaderGone([], 1, 'account center listening');
    expect(await exitWithin(s, 10_000)).toBe(0);
  }, 60_000);

  it('--workers 2: the primary and its workers exit 0 on SIGTERM', async () => {
    const s = await serveWithReaderGone(['--workers', '2'], 2, '"workers":2,');
    expect(await exitWithin(s, 20_000)).toBe(0);
  }, 90_000);
});
