import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/net.js';
import { waitFor } from '../helpers/wait.js';

const run = promisify(execFile);
const REDIS_SERVER = process.env.REDIS_SERVER || '/usr/bin/redis-server';
const inCi =
  !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());

/** PG_BIN_DIR, else a source build's /usr/local/bin, else Debian's newest /usr/lib/postgresql/N/bin. */
function postgresBin(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  if (existsSync('/usr/local/bin/initdb')) return '/usr/local/bin';
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian).sort((a, b) => Number(b) - Number(a))
    : [];
  return join(debian, versions[0] ?? 'none', 'bin');
}
const PG_BIN = postgresBin();

/**
 * Whether this machine can run the private servers of the fault suite; without them the
 * cases skip with a warning, except in CI, where that is a failure.
 */
export function privateServersAvailable(): {
  postgres: boolean;
  redis: boolean;
} {
  const found = {
    postgres: existsSync(join(PG_BIN, 'initdb')),
    redis: existsSync(REDIS_SERVER),
  };
  for (const [name, ok] of Object.entries(found)) {
    if (ok) continue;
    const text = `the fault suite needs a private ${name} server, and finds none`;
    if (inCi) throw new Error(`CI=true: ${text}`);
    console.warn(`\n!!! ${text}: its cases are SKIPPED !!!\n`);
  }
  return found;
}

/**
 * PostgreSQL refuses to run as root: as root its files belong to `postgres` and its tools run
 * as that user (runuser); as anyone else they run as the caller.
 */
async function asOwner(tool: string, args: string[]): Promise<void> {
  const file = join(PG_BIN, tool);
  if (process.getuid?.() === 0)
    await run('runuser', ['-u', 'postgres', '--', file, ...args]);
  else await run(file, args);
}

/**
 * A PostgreSQL cluster of its own (`initdb` in a temporary directory, `pg_ctl` on a free
 * port), which a test may stop and start again while the center uses it.
 */
export class PrivatePostgres {
  readonly port: number;
  private readonly dir: string;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      chownSync(dir, uid, uid);
    }
    await asOwner('initdb', [
      '-D',
      join(dir, 'data'),
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ]);
    const pg = new PrivatePostgres(dir, await freePort());
    await pg.start();
    return pg;
  }

  async start(): Promise<void> {
    await asOwner('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  }

  /** Stops the server at once: sessions are ended, transactions in flight roll back. */
  async stop(): Promise<void> {
    await asOwner('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-m',
      'fast',
      '-w',
      'stop',
    ]);
  }

  async dispose(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A `redis-server` of its own, without persistence, stopped and started on the same port. */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async create(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.child = child;
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await waitFor('redis-server to accept connections', 10_000, () => {
      if (child.exitCode !== null)
        throw new Error(`redis-server exited: ${out}`);
      return out.includes('Ready to accept connections');
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  dispose(): Promise<void> {
    return this.stop();
  }
}
