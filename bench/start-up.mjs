// How long the command line takes to answer (docs/performance.md, "Start-up"): `--help`, a
// `user` command on an existing SQLite database, and `serve` until /healthz answers, each the
// median of ROUNDS runs (default 5) of a fresh process, wall time.
//   node bench/start-up.mjs          (npm run bench runs it too)
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, ROOT } from './lib/proc.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** The targets of a quiet 2-core machine. */
export const START_UP_TARGETS_MS = { help: 500, user: 500, serve: 2000 };

function run(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/account-center.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

async function serveUntilHealthy(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/account-center.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`serve exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureStartUp(rounds = ROUNDS) {
  const dir = mkdtempSync(join(tmpdir(), 'account-center-start-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  try {
    await run(['migrate'], env);
    await run(
      [
        'user',
        'create',
        '--username',
        'startup_user',
        '--password',
        'start-up-password',
        '--email',
        'startup@example.com',
      ],
      env,
    );
    const times = { help: [], user: [], serve: [] };
    for (let i = 0; i < rounds; i++) {
      times.help.push(await run(['--help'], env));
      times.user.push(
        await run(['user', 'roles', 'startup_user', `player,round${i}`], env),
      );
      times.serve.push(await serveUntilHealthy(env));
    }
    return Object.fromEntries(
      Object.entries(times).map(([k, v]) => [k, Math.round(median(v))]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows for the bench's table of checks. */
export function startUpChecks(ms) {
  return Object.entries(START_UP_TARGETS_MS).map(([name, target]) => ({
    check: `start-up ms: ${name === 'user' ? 'a user command' : name === 'help' ? '--help' : 'serve to /healthz'}`,
    measured: ms[name],
    target: `< ${target}`,
    result: ms[name] < target ? 'pass' : 'MISS',
  }));
}

export function printStartUp(ms) {
  console.log('\nStart-up (median wall time of a fresh process)');
  for (const [name, target] of Object.entries(START_UP_TARGETS_MS)) {
    console.log(
      `  ${name.padEnd(6)} ${String(ms[name]).padStart(6)} ms   target < ${target} ms   ${ms[name] < target ? 'pass' : 'MISS'}`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  printStartUp(await measureStartUp());
