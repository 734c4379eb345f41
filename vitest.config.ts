import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresReachable } from './test/helpers/db.js';

/**
 * Two projects: "default" runs everything on SQLite; "postgres" runs the API and storage
 * suites again on PostgreSQL (a fresh schema per test app). Without a reachable PostgreSQL
 * the second project is skipped with a warning, except in CI where that is a failure.
 */
const PG_URL = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const inCi = !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());
const pgUp = process.env.TEST_SKIP_POSTGRES === '1' ? false : await postgresReachable(PG_URL);

if (!pgUp) {
  const line = '!'.repeat(78);
  const why = process.env.TEST_SKIP_POSTGRES === '1' ? 'TEST_SKIP_POSTGRES=1' : `PostgreSQL is not reachable at ${PG_URL}`;
  const text = `\n${line}\n!! ${why}\n!! The "postgres" test project and the multi-instance tests are SKIPPED.\n${line}\n`;
  if (inCi) throw new Error(`${text}CI=true: PostgreSQL is required (set TEST_PG_URL or start it).`);
  console.warn(text);
}

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'default',
      include: ['test/**/*.test.ts'],
      // Tests that start real processes or a browser read this to find the compiled service.
      globalSetup: ['test/helpers/global-setup.ts'],
      // Multi-instance tests need a shared PostgreSQL; empty means skip (or fail in CI).
      env: { TEST_PG_URL: pgUp ? PG_URL : '' },
    },
  },
];
if (pgUp) {
  projects.push({
    extends: true,
    test: {
      name: 'postgres',
      // The fuzz tests too: PostgreSQL refuses input SQLite takes (NUL in text), so both must hold.
      include: ['test/api/**/*.test.ts', 'test/storage/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
      globalSetup: ['test/helpers/global-setup.ts'],
      env: { TEST_DATABASE_URL: PG_URL },
    },
  });
}

/**
 * At least two test files at a time. Vitest's own default is one fewer than the cores, which on
 * a 2-core machine runs every file in turn; most files spend their time waiting on child
 * processes, the browser or PostgreSQL, so two at once took a 2-core run from 699 s to 489 s.
 */
const TEST_WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: TEST_WORKERS,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects,
  },
});
