import { ConfigError, loadConfig } from './config/index.js';

/**
 * What bin/account-center.js runs first. Loading the service (Fastify, the database drivers,
 * every route and service) is the slow part of a start; a configuration `serve`
 * can not start with (no JWT_SECRET in production, a malformed DATABASE_URL, a bad number) is
 * found before that, from the environment alone: one line on stderr and exit code 1, at once.
 * Only then is the command line (src/cli/index.ts, and with it the rest) loaded.
 */
export async function start(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === 'serve') {
    try {
      loadConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(
        `account-center: ${err.message.replace(/\s*\n\s*/g, ' ')}\n`,
      );
      process.exit(1);
    }
  }
  const { main } = await import('./cli/index.js');
  await main(argv);
}
