/** What every one-off command shares: its usage error and a way to run with the services. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../platform/logging/log.js';
import type { createServices } from '../app/services.js';
import { say } from './messages.js';

export class UsageError extends Error {}

const UNIT_S: Record<string, number> = {
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 7 * 86_400,
};

/** `90s`, `30m`, `12h`, `7d`, `2w`, or plain seconds. */
export function durationSeconds(text: string): number | undefined {
  const m = /^(\d{1,9})([smhdw]?)$/.exec(text.trim());
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNIT_S[m[2] || 's']!;
  return seconds >= 1 ? seconds : undefined;
}

/** A bad argument of a command whose form is known: its one line says what, without the usage text. */
export class ArgumentError extends UsageError {}

/**
 * The options and exactly `positionals` arguments of `command`: an unknown option, a missing
 * or a stray argument is an ArgumentError naming it.
 */
export function strictArgs<T extends ParseArgsConfig['options']>(
  command: string,
  args: string[],
  options: T,
  positionals: number,
) {
  let parsed: ReturnType<
    typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    const option = /'(-[^']*)'/.exec((err as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new ArgumentError(
        say('unknownOption', { command, option: option ?? '' }).trim(),
      );
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new ArgumentError(
        say('optionNeedsValue', { command, option: option ?? '' }),
      );
    throw new ArgumentError(`${command}: ${(err as Error).message}`);
  }
  const stray = parsed.positionals[positionals];
  if (stray !== undefined)
    throw new ArgumentError(
      say('unexpectedArgument', { command, argument: stray }),
    );
  return parsed;
}

/**
 * Opens storage and services for a one-off command, runs it, and closes everything. The
 * service's modules load here, once a command has passed its argument checks: `help` and a
 * refused argument answer without them.
 */
export async function withServices<T>(
  run: (s: ReturnType<typeof createServices>) => Promise<T>,
): Promise<T> {
  const { config } = loadConfig();
  const logger = createLogger('warn', process.stderr);
  const [{ createServices }, { createSqlStorage }] = await Promise.all([
    import('../app/services.js'),
    import('../app/sql-storage.js'),
  ]);
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
