import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loadConfig, type Config } from './config/index.js';
import { buildApp } from './app/http.js';
import { createLogger, exitAfterLogFlush } from './platform/logging/log.js';
import { tuneGarbageCollection } from './platform/process/gc-tuning.js';
import { createServices, type ServiceOptions } from './app/services.js';
import type { Services } from './app/all-services.js';
import { isClusterWorker } from './app/cluster.js';
import { LocalChangeBus, type ChangeBus } from './platform/bus/change-bus.js';
import { ClusterChangeBus } from './platform/bus/cluster-ipc.js';
import {
  clusterCounters,
  redisCounters,
  type RateCounters,
} from './platform/rate-limit/counters.js';
import { RedisChangeBus } from './platform/bus/redis.js';
import { createSqlStorage } from './app/sql-storage.js';
import type { Storage } from './app/storage.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  storage: Storage;
  services: Services;
  /** Where this instance announces and hears changes (users, revocations, apps). */
  bus: ChangeBus;
  app: FastifyInstance;
  /** Stops taking connections, lets in-flight requests finish, then releases everything. */
  close(): Promise<void>;
}

export interface RuntimeOptions extends ServiceOptions {
  /** False in cluster workers: the primary migrated before forking them. */
  migrate?: boolean;
  /** Shortens the time a client has to send its request (tests of slow clients). */
  requestTimeoutMs?: number;
}

/**
 * What other instances share: with REDIS_URL, counters and change events go through Redis;
 * in a cluster worker without it, through the primary; otherwise they stay in this process.
 */
async function sharedState(
  config: Config,
  logger: Logger,
  opts: RuntimeOptions,
): Promise<{ bus: ChangeBus; rateCounters?: RateCounters }> {
  if (config.redisUrl) {
    const bus =
      opts.bus ??
      new RedisChangeBus(config.redisUrl, logger, config.redisPrefix);
    if (bus instanceof RedisChangeBus) {
      await bus
        .ready()
        .catch((err: unknown) =>
          logger.error(
            { err },
            'redis subscribe failed: other instances converge by polling',
          ),
        );
    }
    return {
      bus,
      rateCounters:
        opts.rateCounters ??
        redisCounters(config.redisUrl, logger, config.redisPrefix),
    };
  }
  if (isClusterWorker())
    return {
      bus: opts.bus ?? new ClusterChangeBus(),
      rateCounters: opts.rateCounters ?? clusterCounters(),
    };
  return {
    bus: opts.bus ?? new LocalChangeBus(),
    rateCounters: opts.rateCounters,
  };
}

/** Composition root: config → storage (migrated) → services → HTTP app. Does not listen. */
export async function createRuntime(
  config: Config,
  logger: Logger,
  opts: RuntimeOptions = {},
): Promise<Runtime> {
  const storage = await createSqlStorage(config.databaseUrl, {
    onPoolError: (err) => logger.error({ err }, 'database connection lost'),
  });
  if (opts.migrate !== false) await storage.migrate();
  const shared = await sharedState(config, logger, opts);
  const services = createServices(config, storage, logger, {
    ...opts,
    ...shared,
  });
  await services.start();
  const app = await buildApp({
    config,
    services,
    logger,
    requestTimeoutMs: opts.requestTimeoutMs,
  });
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    storage,
    services,
    bus: shared.bus,
    app,
    close() {
      closing ??= (async () => {
        await app.close();
        await services.stop();
        await storage.close();
      })();
      return closing;
    },
  };
}

/** Runs the service until SIGTERM/SIGINT, then drains in-flight requests and exits. */
export async function serve(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Runtime> {
  const { config, warnings } = loadConfig(env);
  tuneGarbageCollection(config.gcFlags);
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  for (const w of warnings) logger.warn(w);
  const runtime = await createRuntime(config, logger, {
    migrate: !isClusterWorker(),
  });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => exitAfterLogFlush(logger, 1), 10_000);
    force.unref();
    runtime.close().then(
      () => exitAfterLogFlush(logger, 0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        exitAfterLogFlush(logger, 1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  const address = await runtime.app.listen({
    port: config.port,
    host: config.host,
  });
  // `address` is the real one (PORT=0 picks a free port); `url` is the public BASE_URL.
  logger.info(
    { address, url: config.baseUrl, database: runtime.storage.kind },
    'account center listening',
  );
  return runtime;
}
