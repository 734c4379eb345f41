import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies committed pages from SQLite's write-ahead log into the database file on a thread of
 * its own, through a second connection.
 *
 * SQLite does this copying (a checkpoint) inside the commit that takes the log past
 * `wal_autocheckpoint` pages: on the event loop, with two fsyncs, while every request waits.
 * Under `exchange` a log ten times as long (fewer, bigger checkpoints) saved about a tenth of
 * each request's CPU but doubled its p99 (docs/performance.md). Here a passive checkpoint
 * runs every CHECKPOINT_EVERY_MS beside the writer while it writes (it never blocks it), so
 * when the writer's own checkpoint comes due nearly every page has been copied already; that
 * last checkpoint is still needed, since only a log whose every frame is copied starts again
 * from its beginning instead of growing.
 *
 * The thread starts with the first write (a thread and a connection cost about 25 ms to start
 * and stop): a CLI command that only reads, or migrates in its own transactions, never pays.
 *
 * The worker's code is a string so that it runs the same from `dist/` and from the sources
 * under test; it is given the resolved path of better-sqlite3 rather than resolving it itself.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
let delay = workerData.everyMs;
let lastLog = -1;
let timer;
function checkpoint() {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    // Nothing written since the last look: wait longer, up to idleMs, so an idle service
    // is not woken a hundred times a second; any new page brings the short interval back.
    const idle = log === lastLog && checkpointed === log;
    delay = idle ? Math.min(delay * 2, workerData.idleMs) : workerData.everyMs;
    lastLog = log;
  } catch {
    // Busy or failing: the writer's own checkpoints still keep the log bounded.
  }
  timer = setTimeout(checkpoint, delay);
}
timer = setTimeout(checkpoint, delay);
parentPort.once('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

/** Often enough that the writer's checkpoint finds little left to copy. */
export const CHECKPOINT_EVERY_MS = 10;

/** The longest wait while nothing is written (the interval doubles up to it). */
export const CHECKPOINT_IDLE_MS = 1000;

/**
 * The writer's own checkpoint comes due at this many pages of log (SQLite's default is 1,000).
 * With the thread copying, fewer of them do the same job, each with its two fsyncs.
 */
export const WRITER_CHECKPOINT_PAGES = 4000;

export class WalCheckpointer {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly path: string, private readonly everyMs = CHECKPOINT_EVERY_MS, private readonly idleMs = CHECKPOINT_IDLE_MS) {}

  /** Starts the thread unless it runs already; called as writes come, so cheap when it does. */
  wrote(): void {
    if (this.worker !== undefined) return;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: this.path, everyMs: this.everyMs, idleMs: this.idleMs },
    });
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    // It never keeps the process alive, and a thread that fails leaves the writer's own checkpoints.
    worker.unref();
    worker.on('error', () => undefined);
    this.worker = worker;
  }

  /** Stops the timer and closes the second connection, if the thread was started. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    // Referenced again, or a process with nothing else left would end before the thread did.
    worker.ref();
    worker.postMessage('stop');
    await this.exited;
  }
}
