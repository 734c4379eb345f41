import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loadConfig, type Config } from './config/index.js';
import { buildApp } from './http/app.js';
import { createLogger } from './log.js';
import { createServices, type ServiceOptions, type Services } from './services/index.js';
import { createSqlStorage } from './storage/sql/index.js';
import type { Storage } from './storage/types.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  storage: Storage;
  services: Services;
  app: FastifyInstance;
  /** Stops taking connections, lets in-flight requests finish, then releases everything. */
  close(): Promise<void>;
}

/** Composition root: config → storage (migrated) → services → HTTP app. Does not listen. */
export async function createRuntime(config: Config, logger: Logger, opts: ServiceOptions = {}): Promise<Runtime> {
  const storage = await createSqlStorage(config.databaseUrl);
  await storage.migrate();
  const services = createServices(config, storage, logger, opts);
  await services.start();
  const app = await buildApp({ services, logger });
  let closing: Promise<void> | undefined;
  return {
    config, logger, storage, services, app,
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
export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<Runtime> {
  const { config, warnings } = loadConfig(env);
  const logger = createLogger(config.logLevel);
  for (const w of warnings) logger.warn(w);
  const runtime = await createRuntime(config, logger);
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    runtime.close().then(() => process.exit(0), (err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await runtime.app.listen({ port: config.port, host: config.host });
  logger.info({ url: config.baseUrl, database: runtime.storage.kind }, 'account center listening');
  return runtime;
}
