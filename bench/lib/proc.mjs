// Starting and stopping the processes under test; each runs apart from the load generator.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const ROOT = new URL('../../', import.meta.url).pathname;

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status), summed over its children. */
export function rssMb(pid) {
  const read = (p) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(
        readFileSync(`/proc/${p}/status`, 'utf8'),
      );
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  };
  let kb = read(pid);
  for (const child of childPids(pid)) kb += read(child);
  return Math.round(kb / 1024);
}

/** CPU time (user + system) a process and its children have used so far, in ms. */
export function cpuMs(pid) {
  const read = (p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 10 ms ticks
    } catch {
      return 0;
    }
  };
  let ms = read(pid);
  for (const child of childPids(pid)) ms += read(child);
  return ms;
}

function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(
        `process exited with code ${child.exitCode} before listening`,
      );
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
}

/**
 * Spawns `node <args>` with env, waits until `readyPath` answers, and returns a handle
 * whose stop() sends SIGTERM and waits for the exit.
 */
export async function startProcess({
  name,
  args,
  env,
  port,
  readyPath = '/healthz',
  nodeFlags = [],
}) {
  const child = spawn(process.execPath, [...nodeFlags, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(url + readyPath, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${name}: ${err.message}\n${stderr}`);
  }
  return {
    name,
    url,
    pid: child.pid,
    rssMb: () => rssMb(child.pid),
    cpuMs: () => cpuMs(child.pid),
    stderr: () => stderr,
    stop() {
      if (child.exitCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}

export function runNode(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}
