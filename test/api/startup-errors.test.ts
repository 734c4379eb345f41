import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl } from '../helpers/db.js';
import { runCommand } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-startup-'));
// A regular file: any path "inside" it can not be created, even by root.
const notAFolder = join(dir, 'plain-file');
writeFileSync(notAFolder, 'x');

const baseEnv: Record<string, string> = {
  HOST: '127.0.0.1',
  PORT: '0',
  DATABASE_URL: `sqlite:${join(dir, 'ac.db')}`,
  JWT_SECRET: 'startup-test-secret-startup-test-secret-0123',
  LOG_LEVEL: 'warn',
};

/** `account-center serve` with PATH, baseEnv and `env` only. */
const serve = (
  env: Record<string, string>,
  args: string[] = [],
  nodeArgs: string[] = [],
) =>
  runCommand({ ...baseEnv, ...env }, ['serve', ...args], {
    isolated: true,
    timeoutMs: 30_000,
    nodeArgs,
  });

/** Exit code 1 and exactly one line on stderr, matching `pattern`. */
async function expectOneLine(
  env: Record<string, string>,
  pattern: RegExp,
  args: string[] = [],
): Promise<string> {
  const run = await serve(env, args);
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^account-center: /);
  expect(lines[0]).toMatch(pattern);
  return lines[0]!;
}

let taken: Server;
let takenPort = 0;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

// Nothing here depends on the test database: run once, on the default project.
describe.skipIf(isPostgresUrl(process.env.TEST_DATABASE_URL))(
  'a failed start is one clear line and exit code 1',
  () => {
    it('names the port that is taken', async () => {
      await expectOneLine(
        { PORT: String(takenPort) },
        new RegExp(
          `port ${takenPort} on 127\\.0\\.0\\.1 is already in use \\(PORT, HOST\\).*choose another PORT`,
        ),
      );
    });

    it('in cluster mode too, instead of workers restarting forever', async () => {
      await expectOneLine(
        { PORT: String(takenPort) },
        new RegExp(`port ${takenPort} on 127\\.0\\.0\\.1 is already in use`),
        ['--workers', '2'],
      );
      await expectOneLine(
        { LIMIT_LOGIN_IP: '0/0' },
        /LIMIT_LOGIN_IP: both numbers must be ≥ 1/,
        ['--workers', '2'],
      );
    });

    it('names an unreachable PostgreSQL without its password', async () => {
      const line = await expectOneLine(
        { DATABASE_URL: 'postgres://postgres:hunter2-secret@127.0.0.1:1/test' },
        /PostgreSQL at 127\.0\.0\.1:1\/test is unreachable: connection refused \(DATABASE_URL\): check that the server runs/,
      );
      expect(line).not.toContain('hunter2');
    });

    it('names a PostgreSQL that closes the connection or does not answer', async () => {
      // Depending on the network, this address drops packets (timeout) or is refused at once.
      await expectOneLine(
        { DATABASE_URL: 'postgres://postgres@10.255.255.1:5432/test' },
        /PostgreSQL at 10\.255\.255\.1:5432\/test is unreachable: .*\(DATABASE_URL\)/,
      );
    });

    it('rejects a malformed DATABASE_URL', async () => {
      await expectOneLine(
        { DATABASE_URL: 'mysql://localhost/db' },
        /DATABASE_URL must be sqlite:PATH or postgres:\/\//,
      );
      await expectOneLine(
        { DATABASE_URL: 'postgres://us er:pw@[bad/db' },
        /DATABASE_URL is not a valid URL: use postgres:\/\/user:password@host/,
      );
      await expectOneLine(
        { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test?pool_max=many' },
        /DATABASE_URL is malformed \(invalid pool_max/,
      );
    });

    it('rejects a malformed LIMIT_* rule', async () => {
      await expectOneLine(
        { LIMIT_LOGIN_PAIR: 'ten per minute' },
        /LIMIT_LOGIN_PAIR: expected <max>\/<window seconds>, got "ten per minute"/,
      );
    });

    it('names an unwritable data folder', async () => {
      await expectOneLine(
        { DATABASE_URL: `sqlite:${join(notAFolder, 'data', 'ac.db')}` },
        /the SQLite database .*plain-file\/data\/ac\.db can not be used: .*\(DATABASE_URL\): make its folder writable/,
      );
      await expectOneLine(
        { JWT_SECRET: '', DATA_DIR: join(notAFolder, 'data') },
        /JWT_SECRET is not set and .*plain-file\/data\/jwt-secret can not be written .*set JWT_SECRET or DATA_DIR/,
      );
    });

    it('finds a configuration error before loading the service: one line, exit 1, little CPU', async () => {
      // The child reports its own CPU time on exit (a preload), so a busy machine does not matter.
      const report = join(dir, 'cpu-usage.cjs');
      writeFileSync(
        report,
        `process.on('exit', () => { const u = process.resourceUsage();
      require('fs').writeFileSync(process.env.CPU_USAGE_FILE, String((u.userCPUTime + u.systemCPUTime) / 1000)); });`,
      );
      const cpuFile = join(dir, 'cpu-ms');
      const cases: Array<[Record<string, string>, RegExp]> = [
        [
          { NODE_ENV: 'production', JWT_SECRET: '' },
          /JWT_SECRET is required when NODE_ENV=production/,
        ],
        [
          { NODE_ENV: 'production', JWT_SECRET: 'too-short' },
          /JWT_SECRET must be at least 32 bytes when NODE_ENV=production/,
        ],
        [
          { DATABASE_URL: 'mysql://localhost/db' },
          /DATABASE_URL must be sqlite:PATH or postgres:\/\//,
        ],
        [
          {
            DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test?pool_max=many',
          },
          /DATABASE_URL is malformed \(invalid pool_max/,
        ],
        [
          { PORT: 'eighty' },
          /PORT must be an integer from 0 to 65535, got "eighty"/,
        ],
      ];
      for (const [env, pattern] of cases) {
        const run = await serve(
          { ...env, CPU_USAGE_FILE: cpuFile },
          [],
          ['--require', report],
        );
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr.split('\n').filter(Boolean), run.stderr).toEqual([
          expect.stringMatching(pattern),
        ]);
        // Loading the service takes about 2 s of CPU on the development machine; a check alone, about 0.05 s.
        expect(
          Number(readFileSync(cpuFile, 'utf8')),
          JSON.stringify(env),
        ).toBeLessThan(500);
      }
    });

    it('names a file that is not a database', async () => {
      const file = join(dir, 'not-a-db.db');
      writeFileSync(
        file,
        'this is not a database file, just text that is long enough to have a header',
      );
      await expectOneLine(
        { DATABASE_URL: `sqlite:${file}` },
        /not-a-db\.db can not be used: the file is not a SQLite database \(DATABASE_URL\): restore it/,
      );
    });
  },
);
