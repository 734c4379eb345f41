import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/index.js';
import { createLogger } from './log.js';
import { serve } from './main.js';
import { isClusterWorker, runPrimary } from './cluster.js';
import { createServices } from './services/index.js';
import { createSqlStorage } from './storage/sql/index.js';
import { DEFAULT_ROLES, isValidEmail, isValidPassword, isValidUsername } from './domain/accounts.js';
import { AppError } from './errors/index.js';
import { UniqueViolation } from './storage/types.js';

const USAGE = `usage: account-center [command]

  serve [--workers N]                  run the service (the default)
  migrate                              apply database migrations and exit
  user create --username U --password P --email E [--roles a,b]
  user ban U | user unban U | user roles U a,b
  app create --owner U --name N --redirect-uri URI [--public] [--client-id ID]

Configuration comes from the environment (PORT, HOST, DATABASE_URL, JWT_SECRET, …); see README.`;

class UsageError extends Error {}

/** Opens storage and services for a one-off command, runs it, and closes everything. */
async function withServices<T>(run: (s: ReturnType<typeof createServices>) => Promise<T>): Promise<T> {
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

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

async function userCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' }, roles: { type: 'string' } } });
    const { username, password, email } = values;
    if (!username || !isValidUsername(username)) throw new UsageError('--username: 3–32 of A-Z a-z 0-9 _');
    if (!password || !isValidPassword(password)) throw new UsageError('--password: 8–128 characters');
    if (!email || !isValidEmail(email)) throw new UsageError('--email: a valid e-mail address');
    const roles = values.roles ? values.roles.split(',').map((r) => r.trim()).filter(Boolean) : [...DEFAULT_ROLES];
    await withServices(async (s) => {
      const user = await s.storage.users.create({
        username, email, displayName: username, passwordHash: await s.passwords.hash(password), emailVerified: true, roles,
      }, s.now()).catch((err) => {
        if (err instanceof UniqueViolation) throw new UsageError(`${err.field} already taken`);
        throw err;
      });
      await s.audit.record('user.create', { actor: 'cli', target: user.username });
      print({ uid: user.id, username: user.username, email: user.email, roles: user.roles });
    });
    return;
  }
  const [username, roleList] = rest;
  if (!username) throw new UsageError(`user ${sub ?? ''}: a username is required`);
  if (sub === 'ban' || sub === 'unban') {
    await withServices(async (s) => print(await s.admin.setBanned(username, sub === 'ban', 'cli')));
  } else if (sub === 'roles') {
    if (roleList === undefined) throw new UsageError('user roles U a,b: a comma-separated role list is required');
    const roles = roleList.split(',').map((r) => r.trim()).filter(Boolean);
    await withServices(async (s) => print(await s.admin.setRoles(username, roles, 'cli')));
  } else {
    throw new UsageError(`unknown user command: ${sub ?? ''}`);
  }
}

/** Commands that later modules add (e.g. `app`), keyed by their first word. */
/** `app create --owner U --name N --redirect-uri URI [--public] [--client-id ID]` (CONTRACT §8). */
async function appCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError(`unknown app command: ${sub ?? ''}`);
  const { values } = parseArgs({
    args: rest,
    options: { owner: { type: 'string' }, name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, public: { type: 'boolean' }, 'client-id': { type: 'string' } },
  });
  const { owner, name } = values;
  const redirectUris = values['redirect-uri'];
  if (!owner || !name || !redirectUris?.length) throw new UsageError('app create: --owner, --name and --redirect-uri are required');
  await withServices(async (s) => {
    const user = await s.storage.users.findByUsername(owner);
    if (!user) throw new UsageError(`unknown user: ${owner}`);
    print(await s.apps.create({ user, ip: null }, {
      display_name: name, redirect_uris: redirectUris, client_type: values.public ? 'public' : 'confidential', client_id: values['client-id'],
    }));
  });
}

export const extraCommands: Record<string, (args: string[]) => Promise<void>> = { app: appCommand };

export async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
        const workers = values.workers === undefined ? 1 : Number(values.workers);
        if (!Number.isInteger(workers) || workers < 1) throw new UsageError('--workers: a positive integer');
        if (workers > 1 && !isClusterWorker()) await runPrimary(workers);
        else await serve();
        return;
      }
      case 'migrate':
        await withServices(async () => undefined);
        process.stdout.write('migrations applied\n');
        return;
      case 'user':
        await userCommand(args);
        return;
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE + '\n');
        return;
      default: {
        const extra = extraCommands[command];
        if (!extra) throw new UsageError(`unknown command: ${command}`);
        await extra(args);
      }
    }
  } catch (err) {
    // node:util parseArgs rejects unknown options and missing values with these codes.
    const badArgs = String((err as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS_');
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof AppError || badArgs) {
      process.stderr.write(`account-center: ${err instanceof AppError ? err.msg : (err as Error).message}\n`);
      if (err instanceof UsageError || badArgs) process.stderr.write(USAGE + '\n');
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
