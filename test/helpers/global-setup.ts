import { execFileSync } from 'node:child_process';

/** Compiles the service once, so tests that spawn the real CLI run today's code. */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { stdio: 'inherit' });
}
