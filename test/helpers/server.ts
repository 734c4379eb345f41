import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.js';
import { waitFor } from './wait.js';

const BIN = fileURLToPath(
  new URL('../../bin/account-center.js', import.meta.url),
);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_SECRET = 'multi-instance-secret-0123456789-abcdefghijkl';

export { freePort } from './net.js';
export { waitFor } from './wait.js';

/** The test runner's environment minus what it sets for itself (vite puts BASE_URL=/ there). */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of [
    'BASE_URL',
    'MODE',
    'DEV',
    'PROD',
    'SSR',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'TEST',
    'TEST_DATABASE_URL',
  ])
    delete env[k];
  return env;
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The same as `url`. */
  base: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code, or the signal name, once the process has ended. */
  exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | string>;
}

/**
 * Starts the compiled service (`node bin/account-center.js serve …`) on a free loopback port
 * (or `env.PORT`) and resolves once it answers /healthz and, with `--workers N`, once the
 * primary has logged that all `listeners` workers listen (that needs LOG_LEVEL=info, the default here).
 */
export async function startServer(
  env: Record<string, string> = {},
  args: string[] = [],
  listeners = 1,
): Promise<RunningServer> {
  const port = env.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      HOST: '127.0.0.1',
      JWT_SECRET: SERVER_SECRET,
      LOG_LEVEL: 'info',
      IP_RATE_LIMITS: 'off',
      NODE_ENV: 'test',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const server: RunningServer = {
    url,
    base: url,
    child,
    exited,
    output: () => out,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
  try {
    await waitFor('the server to answer /healthz', 50_000, async () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error('the server exited before it was ready');
      // The primary logs `account center listening` with the worker count once every worker listens.
      if (listeners > 1 && !out.includes(`"workers":${listeners},`))
        return false;
      return (await call(url, 'GET', '/healthz')).status === 200;
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}:\n${out}`);
  }
  return server;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  /** Pass the command only PATH of the runner's environment (besides JWT_SECRET and `env`), not the rest of it. */
  isolated?: boolean;
  /** SIGTERM the command after this long; its code is then null. */
  timeoutMs?: number;
  /** Options for node itself, before the script (`--require` a preload, say). */
  nodeArgs?: string[];
}

/** Runs a one-off CLI command with the given environment, whatever its exit code. */
export async function runCommand(
  env: Record<string, string>,
  args: string[],
  opts: CommandOptions = {},
): Promise<CliRun> {
  const inherited = opts.isolated
    ? { PATH: process.env.PATH ?? '' }
    : baseEnv();
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), BIN, ...args],
    {
      cwd: ROOT,
      env: { ...inherited, JWT_SECRET: SERVER_SECRET, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer =
    opts.timeoutMs === undefined
      ? undefined
      : setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs);
  const code = await new Promise<number | null>((resolve) =>
    child.once('close', resolve),
  );
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Runs a one-off CLI command that must succeed; resolves with its stdout. */
export async function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<string> {
  const { code, stdout, stderr } = await runCommand(env, args);
  if (code !== 0)
    throw new Error(
      `account-center ${args.join(' ')} exited ${code}: ${stderr}`,
    );
  return stdout;
}

export interface Reply {
  status: number;
  body: any;
}

/**
 * One JSON request on a fresh connection (no keep-alive), so cluster workers take turns.
 * A connection that fails or is dropped (the server was killed) answers status 0.
 */
export function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      new URL(path, base),
      {
        method,
        agent: false,
        timeout: 20_000,
        headers: {
          ...(payload !== undefined && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('error', () => resolve({ status: 0, body: {} }));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = text === '' ? {} : JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: {} }));
    req.end(payload);
  });
}

/** Polls `probe` until it returns true; resolves with the milliseconds it took. */
export async function within(
  ms: number,
  probe: () => Promise<boolean>,
  everyMs = 100,
): Promise<number> {
  const start = Date.now();
  await waitFor(`a condition within ${ms} ms`, ms, probe, everyMs);
  return Date.now() - start;
}
