import { execFileSync } from 'node:child_process';

/**
 * Compiles the service and the web bundle once, so tests that spawn the real CLI or a
 * browser run today's code.
 * A compile error fails the run in CI; locally it is reported and the old build is used.
 */
export default function setup(): void {
  // Every test project lists this file; one build per run is enough.
  const run = globalThis as { accountCenterBuilt?: boolean };
  if (run.accountCenterBuilt) return;
  run.accountCenterBuilt = true;
  try {
    execFileSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', '.'],
      { stdio: 'inherit' },
    );
  } catch (err) {
    if (process.env.CI) throw err;
    console.warn(
      'tsc failed; tests that spawn the service use the previous build',
    );
  }
  // The browser pages are served from dist/web and the CLI runs dist/server; every run gets
  // bundles of today's sources.
  execFileSync(process.execPath, ['scripts/build-web.mjs'], {
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['scripts/build-server.mjs'], {
    stdio: 'inherit',
  });
}
