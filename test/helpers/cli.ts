import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './app.js';
import { freshPostgresSchema, isPostgresUrl } from './db.js';
import { runCommand, SERVER_SECRET, type CliRun } from './server.js';

export type Run = CliRun;

/**
 * The real CLI (bin/account-center.js) against fresh databases of the project's kind. The
 * CLI, `startServer` and `service` all use SERVER_SECRET, so tokens and encrypted columns
 * made by one are read by the others.
 */
export function cliWorkspace(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pgBase = isPostgresUrl(process.env.TEST_DATABASE_URL)
    ? process.env.TEST_DATABASE_URL
    : undefined;
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
    /** `account-center <args>` on `databaseUrl`, given PATH and `env` but nothing else of this environment. */
    cli(
      databaseUrl: string,
      args: string[],
      env: Record<string, string> = {},
    ): Promise<Run> {
      return runCommand(
        { DATABASE_URL: databaseUrl, JWT_SECRET: SERVER_SECRET, ...env },
        args,
        { isolated: true, timeoutMs: 120_000 },
      );
    },
    /** The service in-process on `databaseUrl` (see createTestApp); close it before `dispose`. */
    service(databaseUrl: string): Promise<TestApp> {
      return createTestApp({
        DATABASE_URL: databaseUrl,
        JWT_SECRET: SERVER_SECRET,
      });
    },
    async dispose(): Promise<void> {
      for (const d of disposers) await d();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const loginWith = (t: TestApp, username: string, password: string) =>
  t.post('/api/v1/auth/login', { username, password });
