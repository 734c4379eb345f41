import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const CRASH_SECRET = 'crash-test-secret-crash-test-secret-0123456789';
const BIN = fileURLToPath(new URL('../../bin/account-center.js', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  base: string;
  output: () => string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** The real service (`account-center serve`) on a SQLite file, answering /healthz. */
export async function startServer(dbFile: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${dbFile}`,
      JWT_SECRET: CRASH_SECRET, IP_RATE_LIMITS: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((ok) => child.once('exit', (code, signal) => ok(code ?? signal ?? -1)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, output: () => out, exited };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A JSON call; a dropped connection (the server was killed) answers status 0. */
export async function call(base: string, method: string, path: string, payload?: unknown, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(base + path, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload), signal: AbortSignal.timeout(20_000) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  } catch {
    return { status: 0, body: {} };
  }
}

/**
 * A POST over a raw socket: `sent` resolves once the whole request is in the kernel's hands,
 * so a later request on another socket is known to arrive after it.
 */
export function rawPost(base: string, path: string, payload: unknown, method = 'POST'): { sent: Promise<void>; answer: Promise<Answer & { at: number }> } {
  const { hostname, port } = new URL(base);
  const body = payload === undefined ? '' : JSON.stringify(payload);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (text += d));
  const sent = new Promise<void>((ok, fail) => {
    socket.once('error', fail);
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      (err) => (err ? fail(err) : ok()),
    );
  });
  const answer = new Promise<Answer & { at: number }>((ok) => {
    const done = () => {
      const at = Date.now();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const json = text.slice(text.indexOf('\r\n\r\n') + 4);
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(json);
      } catch {
        // a dropped connection has no body
      }
      ok({ status: m ? Number(m[1]) : 0, body: parsed, at });
    };
    socket.once('close', done);
  });
  sent.catch(() => undefined);
  return { sent, answer };
}
