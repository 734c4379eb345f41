import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/account-center.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_SECRET = 'multi-instance-secret-0123456789-abcdefghijkl';

/** The test runner's environment minus what it sets for itself (vite puts BASE_URL=/ there). */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'TEST', 'TEST_DATABASE_URL']) delete env[k];
  return env;
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then waits for the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts the compiled service (`node bin/account-center.js serve …`) on an ephemeral port and
 * resolves once `listeners` servers report listening (one per worker).
 */
export async function startServer(env: Record<string, string>, args: string[] = [], listeners = 1): Promise<RunningServer> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', JWT_SECRET: SERVER_SECRET, LOG_LEVEL: 'info', IP_RATE_LIMITS: 'off', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), 50_000);
    const check = () => {
      const ports = [...out.matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1]!);
      if (ports.length >= listeners) {
        clearTimeout(timer);
        resolve(ports[0]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`server exited with ${code} before listening:\n${out}`)); });
  });
  return {
    url, child, output: () => out,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}

/** Runs a one-off CLI command with the given environment; resolves with its stdout. */
export async function runCli(env: Record<string, string>, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...baseEnv(), JWT_SECRET: SERVER_SECRET, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`account-center ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}

export interface Reply {
  status: number;
  body: any;
}

/** One request on a fresh connection (no keep-alive), so cluster workers take turns. */
export function call(base: string, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), {
      method, agent: false,
      headers: {
        ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => {
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Polls `probe` until it returns true; resolves with the milliseconds it took. */
export async function within(ms: number, probe: () => Promise<boolean>, everyMs = 100): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
