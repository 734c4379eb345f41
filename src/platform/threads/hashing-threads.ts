import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * argon2id on worker threads of their own, each at a lower CPU priority than the event loop.
 *
 * On libuv's thread pool a hash competed with the event loop as an equal: on a 2-core machine
 * a login burst put a `me` request behind a 10 ms hash often enough to quadruple its p99.
 * Linux keeps the nice value per thread, so each worker lowers its own (found through
 * /proc/thread-self); the kernel then hands the core to the event loop whenever it has work,
 * and hashes take whatever is left. On an idle machine a hash costs what it did.
 *
 * The worker's code is a string so that it runs the same from `dist/` and from the sources
 * under test; it is given the resolved path of @node-rs/argon2 rather than resolving it itself.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {
  // Not Linux, or no /proc: the hash runs at the process's own priority.
}
const { hashSync, verifySync } = require(workerData.argon2);
parentPort.on('message', ({ id, op, a, b, options }) => {
  try {
    const value = op === 'hash' ? hashSync(a, options) : verifySync(a, b, options);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/**
 * Nice 19, the lowest: a hash gets about a seventieth of a core the event loop also wants (the
 * kernel's weights 15 against 1,024), all of an idle one. Against nice 10, `me` beside a login
 * flood kept 5-6 ms of p99 instead of 7 ms and 23,500-25,100 rps instead of 17,100-19,700, with
 * as many logins done (docs/performance.md).
 */
const HASHING_NICE = 19;

type Job = { resolve: (value: never) => void; reject: (error: Error) => void };
type Reply = { id: number; value?: unknown; error?: string };

/** One worker thread running hashes one after another; referenced only while it has work. */
class HashingThread {
  private worker: Worker | undefined;
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;

  get pending(): number {
    return this.jobs.size;
  }

  run<T>(message: { op: 'hash' | 'verify'; a: string; b?: string; options?: object }): Promise<T> {
    const worker = this.started();
    const id = this.nextId++;
    if (this.jobs.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.jobs.set(id, { resolve: resolve as (value: never) => void, reject });
      worker.postMessage({ id, ...message });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { argon2: createRequire(import.meta.url).resolve('@node-rs/argon2'), nice: HASHING_NICE },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(reply));
    // A worker that dies takes its jobs with it; the next hash starts a new one.
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`hashing thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle({ id, value, error }: Reply): void {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker?.unref();
    if (error === undefined) job.resolve(value as never);
    else job.reject(new Error(error));
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const job of this.jobs.values()) job.reject(error);
    this.jobs.clear();
  }
}

/** Hands each hash to the thread with the fewest waiting; each thread works through its own in order. */
export class HashingThreads {
  private readonly threads: HashingThread[];

  constructor(count: number) {
    this.threads = Array.from({ length: Math.max(1, count) }, () => new HashingThread());
  }

  hash(password: string, options: object): Promise<string> {
    return this.leastBusy().run({ op: 'hash', a: password, options });
  }

  verify(storedHash: string, password: string): Promise<boolean> {
    return this.leastBusy().run({ op: 'verify', a: storedHash, b: password });
  }

  private leastBusy(): HashingThread {
    let best = this.threads[0]!;
    for (const thread of this.threads) if (thread.pending < best.pending) best = thread;
    return best;
  }
}
