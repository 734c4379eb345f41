import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/platform/logging/log.js';
import { createRuntime, type Runtime } from '../../src/main.js';
import { freshPostgresSchema, isPostgresUrl } from './db.js';
import { runCommand, type CliRun } from './server.js';

/** The real CLI (bin/account-center.js) against fresh databases of the project's kind. */
export const BIN = join(process.cwd(), 'bin', 'account-center.js');
const SECRET = 'cli-test-secret-cli-test-secret-cli-test-0123';

export type Run = CliRun;

export function cliWorkspace(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pgBase = isPostgresUrl(process.env.TEST_DATABASE_URL) ? process.env.TEST_DATABASE_URL : undefined;
  const disposers: Array<() => Promise<void>> = [];
  return {
    dir,
    /** A fresh, empty database the CLI and an in-process service can both open. */
    async freshDatabase(name: string): Promise<string> {
      if (!pgBase) return `sqlite:${join(dir, `${name}.db`)}`;
      const fresh = await freshPostgresSchema(pgBase);
      disposers.push(fresh.dispose);
      return fresh.url;
    },
    cli(databaseUrl: string, args: string[]): Promise<Run> {
      return runCommand({ DATABASE_URL: databaseUrl, JWT_SECRET: SECRET }, args, { isolated: true, timeoutMs: 120_000 });
    },
    async service(databaseUrl: string): Promise<Runtime> {
      const { config } = loadConfig({ DATABASE_URL: databaseUrl, JWT_SECRET: SECRET, IP_RATE_LIMITS: 'off', SMTP_URL: 'smtp://127.0.0.1:1' });
      const runtime = await createRuntime(config, createLogger('silent'));
      await runtime.app.ready();
      return runtime;
    },
    async dispose(): Promise<void> {
      for (const d of disposers) await d();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const loginWith = (rt: Runtime, username: string, password: string) => rt.app.inject({
  method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username, password }),
});
