import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../process/project-root.js';
import { Piscina } from 'piscina';

/**
 * Nice 19, the lowest: a hash gets little of a core the event loop also wants, all of an idle
 * one. Linux keeps the nice value per thread, so piscina lowers each worker's own
 * (`niceIncrement`); the kernel then hands the core to the event loop whenever it has work,
 * and hashes take whatever is left. On a libuv pool thread a hash competed with the event loop
 * as an equal, and a login burst put `me` requests behind it (docs/performance.md).
 */
const HASHING_NICE = 19;

/**
 * The worker's file: beside this module when it runs from the sources or from tsc's dist/;
 * the bundle under dist/server/ runs tsc's copy.
 */
function workerFile(): string {
  const beside = new URL('./hashing-worker.cjs', import.meta.url);
  if (existsSync(beside)) return beside.href;
  return pathToFileURL(
    join(projectRoot(), 'dist', 'platform', 'threads', 'hashing-worker.cjs'),
  ).href;
}

/**
 * argon2id on a pool of worker threads of their own, each at a lower CPU priority than the
 * event loop. Hashes beyond the pool's size wait in one queue and are taken in arrival order.
 * The threads start with the first hash, so a process that never hashes never starts them.
 */
export class HashingThreads {
  private pool: Piscina | undefined;

  constructor(private readonly count: number) {}

  hash(password: string, options: object): Promise<string> {
    return this.started().run(
      { password, options },
      { name: 'hash' },
    ) as Promise<string>;
  }

  verify(storedHash: string, password: string): Promise<boolean> {
    return this.started().run(
      { storedHash, password },
      { name: 'verify' },
    ) as Promise<boolean>;
  }

  private started(): Piscina {
    const threads = Math.max(1, this.count);
    this.pool ??= new Piscina({
      filename: workerFile(),
      minThreads: threads,
      maxThreads: threads,
      niceIncrement: HASHING_NICE,
    });
    return this.pool;
  }
}
