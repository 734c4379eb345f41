/** What every one-off command shares: its usage error and a way to run with the services. */
import { loadConfig } from '../config/index.js';
import { createLogger } from '../log.js';
import { createServices } from '../services/index.js';
import { createSqlStorage } from '../storage/sql/index.js';

export class UsageError extends Error {}

/** Opens storage and services for a one-off command, runs it, and closes everything. */
export async function withServices<T>(run: (s: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
  const { config } = loadConfig();
  const logger = createLogger('warn', process.stderr);
  const storage = await createSqlStorage(config.databaseUrl);
  try {
    await storage.migrate();
    const services = createServices(config, storage, logger);
    try {
      return await run(services);
    } finally {
      await services.stop();
    }
  } finally {
    await storage.close();
  }
}

