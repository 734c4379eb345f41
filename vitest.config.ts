import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresReachable } from './test/helpers/db.js';

/**
 * "default" runs everything on SQLite; "postgres" runs the API, storage and fuzz suites again
 * on PostgreSQL (a fresh schema per test app). The files of SERIAL_FILES run apart from them,
 * in "serial" and "serial-postgres". Without a reachable PostgreSQL the postgres projects are
 * skipped with a warning, except in CI where that is a failure.
 */
const PG_URL = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const inCi = !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());
const pgUp = process.env.TEST_SKIP_POSTGRES === '1' ? false : await postgresReachable(PG_URL);

if (!pgUp) {
  const line = '!'.repeat(78);
  const why = process.env.TEST_SKIP_POSTGRES === '1' ? 'TEST_SKIP_POSTGRES=1' : `PostgreSQL is not reachable at ${PG_URL}`;
  const text = `\n${line}\n!! ${why}\n!! The "postgres" and "serial-postgres" test projects and the multi-instance tests are SKIPPED.\n${line}\n`;
  if (inCi) throw new Error(`${text}CI=true: PostgreSQL is required (set TEST_PG_URL or start it).`);
  console.warn(text);
}

/**
 * Files that assert how long something took (a time ratio, a latency or deadline bound): run
 * one at a time, after every other file, so no other test's CPU use decides their outcome.
 * A file with such an assertion belongs here; whatever else it tests comes along.
 */
const SERIAL_FILES = [
  'test/api/delivery-fairness.test.ts',
  'test/api/mail-outbox.test.ts',
  'test/api/minecraft-instances.test.ts',
  'test/api/process.test.ts',
  'test/api/sign-in-timing.test.ts',
  'test/api/users-import-costs.test.ts',
  'test/build-if-changed.test.ts',
  'test/limits-processes.test.ts',
  'test/log-broken-pipe.test.ts',
  'test/multi-instance.test.ts',
  'test/multi-instance-redis.test.ts',
  'test/oidc-multi-instance.test.ts',
  'test/roles-multi-instance.test.ts',
  'test/security/load.test.ts',
  'test/security/slow-clients.test.ts',
  'test/unit/password-timing.test.ts',
];
// The fuzz tests too: PostgreSQL refuses input SQLite takes (NUL in text), so both must hold.
const ON_BOTH_DATABASES = ['test/api/', 'test/storage/', 'test/fuzz/'];
const onBothDatabases = (file: string) => ON_BOTH_DATABASES.some((folder) => file.startsWith(folder));
/**
 * The fault suite (docs/operations.md, "When a part fails"): real processes with private
 * PostgreSQL and Redis servers the tests stop and start, so its files run one at a time, in a
 * run of their own: `npm run test:faults` (which .ci/run calls after `npm test`, keeping the
 * suite itself within its time).
 */
const FAULT_FILES = 'test/faults/**';
const faultSuite = process.env.FAULT_SUITE === 'all';
const faultFiles = ['test/faults/**/*.test.ts', 'test/faults/**/*.fault.ts'];
const notSerial = [...configDefaults.exclude, ...SERIAL_FILES, FAULT_FILES];
/** One file at a time, in a single worker: a project's own maxWorkers does not limit the shared pool. */
const oneAtATime = { fileParallelism: false, poolOptions: { forks: { singleFork: true } } };

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'default',
      include: ['test/**/*.test.ts'],
      exclude: notSerial,
      // Tests that start real processes or a browser read this to find the compiled service.
      globalSetup: ['test/helpers/global-setup.ts'],
      // Multi-instance tests need a shared PostgreSQL; empty means skip (or fail in CI).
      env: { TEST_PG_URL: pgUp ? PG_URL : '' },
    },
  },
  {
    extends: true,
    test: {
      name: 'serial',
      include: SERIAL_FILES,
      ...oneAtATime,
      // Groups run in order, each once the one before has finished.
      sequence: { groupOrder: 1 },
      globalSetup: ['test/helpers/global-setup.ts'],
      env: { TEST_PG_URL: pgUp ? PG_URL : '' },
    },
  },
];
if (faultSuite)
  projects.push({
    extends: true,
    test: {
      name: 'faults',
      include: faultFiles,
      ...oneAtATime,
      sequence: { groupOrder: 3 },
      globalSetup: ['test/helpers/global-setup.ts'],
    },
  });
if (pgUp) {
  projects.push({
    extends: true,
    test: {
      name: 'postgres',
      include: ON_BOTH_DATABASES.map((folder) => `${folder}**/*.test.ts`),
      exclude: notSerial,
      globalSetup: ['test/helpers/global-setup.ts'],
      env: { TEST_DATABASE_URL: PG_URL },
    },
  }, {
    extends: true,
    test: {
      name: 'serial-postgres',
      include: SERIAL_FILES.filter(onBothDatabases),
      ...oneAtATime,
      sequence: { groupOrder: 2 },
      globalSetup: ['test/helpers/global-setup.ts'],
      env: { TEST_DATABASE_URL: PG_URL },
    },
  });
}

/**
 * At least two test files at a time. Vitest's own default is one fewer than the cores, which on
 * a 2-core machine runs every file in turn; most files spend their time waiting on child
 * processes, the browser or PostgreSQL, so two at once took a 2-core run from 699 s to 489 s.
 * Three at once on 2 cores lost a worker mid-run ("Terminating worker thread").
 */
const TEST_WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    pool: 'forks',
    // A worker process runs file after file with the modules it has loaded: every file builds
    // its own apps, databases and servers, so nothing of one file reaches the next, and the
    // service's few hundred modules are not loaded again for each of them (which was most of
    // the run's time on 2 cores).
    isolate: false,
    maxWorkers: TEST_WORKERS,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A page condition waited for (`expect.poll`) may follow a password check or a reload on
    // a busy machine: wait for it up to 10 s rather than vitest's 1 s.
    expect: { poll: { timeout: 10_000 } },
    projects,
  },
});
