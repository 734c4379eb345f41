import cluster, { type Worker } from 'node:cluster';
import { loadConfig } from '../config/index.js';
import { createLogger, exitAfterLogFlush } from '../platform/logging/log.js';
import { isClusterMessage } from '../platform/bus/cluster-ipc.js';
import { serveClusterCounters } from '../platform/rate-limit/counters.js';
import { createSqlStorage } from './sql-storage.js';
import { ensurePortFree } from './startup-errors.js';

/** A worker that dies sooner than this after starting counts as a crash loop and waits before restarting. */
const QUICK_DEATH_MS = 5000;
const MAX_RESTART_DELAY_MS = 30_000;
const DRAIN_TIMEOUT_MS = 15_000;

/**
 * The primary of `serve --workers N`: migrates once, forks N workers that share the listening
 * port, replaces a worker that dies, relays change events and keeps the shared rate limit
 * counters, and on SIGTERM/SIGINT lets every worker drain before exiting.
 */
export async function runPrimary(
  workers: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { config, warnings } = loadConfig(env);
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  for (const w of warnings) logger.warn(w);

  const storage = await createSqlStorage(config.databaseUrl, { pgPoolMax: 1 });
  try {
    await storage.migrate();
  } finally {
    await storage.close();
  }

  await ensurePortFree(config.port, config.host);

  serveClusterCounters();
  const startedAt = new Map<number, number>();
  let shuttingDown = false;
  let restartDelay = 0;

  const fork = (): Worker => {
    const worker = cluster.fork({ ACCOUNT_CENTER_CLUSTER_WORKER: '1' });
    startedAt.set(worker.id, Date.now());
    // A reply (a counter, a relayed change) to a worker that has just died fails; its exit is handled below.
    worker.on('error', (err) =>
      logger.warn(
        { err, pid: worker.process.pid },
        'message to a worker not delivered',
      ),
    );
    worker.on('message', (m: unknown) => {
      if (!isClusterMessage(m)) return;
      for (const other of Object.values(cluster.workers ?? {})) {
        if (other && other !== worker && other.isConnected()) other.send(m);
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (shuttingDown) return;
    // No worker ever came up and this one failed to start (it printed why): restarting it
    // would only repeat that, so stop as a single process would, with exit code 1.
    if (listening.size === 0 && code === 1) {
      shuttingDown = true;
      for (const w of Object.values(cluster.workers ?? {}))
        if (w && !w.isDead()) w.process.kill('SIGKILL');
      exitAfterLogFlush(logger, 1);
      return;
    }
    restartDelay =
      lived < QUICK_DEATH_MS
        ? Math.min(Math.max(restartDelay * 2, 500), MAX_RESTART_DELAY_MS)
        : 0;
    logger.error(
      {
        pid: worker.process.pid,
        exitCode: code,
        signal,
        restartInMs: restartDelay,
      },
      'worker died; starting a replacement',
    );
    setTimeout(() => {
      if (!shuttingDown) fork();
    }, restartDelay);
  });

  const listening = new Set<number>();
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (listening.size === workers)
      logger.info(
        { url: config.baseUrl, workers, database: storage.kind },
        'account center listening',
      );
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down workers');
    const alive = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => !!w && !w.isDead(),
    );
    const force = setTimeout(() => {
      for (const w of alive) if (!w.isDead()) w.process.kill('SIGKILL');
      exitAfterLogFlush(logger, 1);
    }, DRAIN_TIMEOUT_MS);
    force.unref();
    if (alive.length === 0) return exitAfterLogFlush(logger, 0);
    let left = alive.length;
    for (const w of alive) {
      w.once('exit', () => {
        if (--left === 0) exitAfterLogFlush(logger, 0);
      });
      w.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  for (let i = 0; i < workers; i++) fork();
}

/** True inside a worker forked by `runPrimary`. */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env.ACCOUNT_CENTER_CLUSTER_WORKER === '1';
}
