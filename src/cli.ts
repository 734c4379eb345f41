import { parseArgs } from 'node:util';
import { ConfigError } from './config/index.js';
import { serve } from './main.js';
import { exitOnStartupFailure } from './startup-errors.js';
import { usersCommand } from './cli/users-transfer.js';
import { backupCommand, restoreCommand } from './cli/backup.js';
import { UsageError, withServices } from './cli/common.js';
import { isClusterWorker, runPrimary } from './cluster.js';
import { DEFAULT_ROLES, isValidEmail, isValidPassword, isValidUsername } from './domain/accounts.js';
import { AppError } from './errors/index.js';

const USAGE = `usage: account-center [command]

  serve [--workers N]                  run the service (the default)
  migrate                              apply database migrations and exit
  user create --username U --password P --email E [--roles a,b]
  user ban U | user unban U | user roles U a,b
  user remove-second-factor U          remove the authenticator and passkeys of a locked-out user
  app create --owner U --name N --redirect-uri URI [--public] [--client-id ID]
             [--grant-types a,b] [--auth-method M] [--post-logout-redirect-uri URI]
  backup FILE | restore FILE           online copy of the database / restore into an empty one
  users export [--format jsonl|csv] [--output FILE]
  users import FILE [--format jsonl|csv]  add users from another system (docs/operations.md)
  keys rotate                          make a new OpenID Connect signing key current

Configuration comes from the environment (PORT, HOST, DATABASE_URL, JWT_SECRET, …); see README.`;

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
      const user = await s.admin.createUser({ username, password, email, roles }, 'cli').catch((err: unknown) => {
        // An operator reads which argument to change.
        if (err instanceof AppError && err.reason === 'usernameTaken') throw new UsageError('username already taken');
        if (err instanceof AppError && err.reason === 'emailTaken') throw new UsageError('email already taken');
        throw err;
      });
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
  } else if (sub === 'remove-second-factor') {
    await withServices(async (s) => print(await s.secondFactor.adminRemove(await s.admin.userNamed(username), 'cli')));
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
    options: {
      owner: { type: 'string' }, name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, public: { type: 'boolean' }, 'client-id': { type: 'string' },
      // OIDC.md §2 client fields.
      'grant-types': { type: 'string' }, 'auth-method': { type: 'string' }, 'post-logout-redirect-uri': { type: 'string', multiple: true },
    },
  });
  const { owner, name } = values;
  const redirectUris = values['redirect-uri'];
  if (!owner || !name || !redirectUris?.length) throw new UsageError('app create: --owner, --name and --redirect-uri are required');
  await withServices(async (s) => {
    const user = await s.admin.userNamed(owner);
    print(await s.apps.create({ user, ip: null }, {
      display_name: name, redirect_uris: redirectUris, client_type: values.public ? 'public' : 'confidential', client_id: values['client-id'],
      grant_types: values['grant-types']?.split(',').map((g) => g.trim()).filter(Boolean),
      token_endpoint_auth_method: values['auth-method'],
      post_logout_redirect_uris: values['post-logout-redirect-uri'],
    }));
  });
}

/** `keys rotate`: every instance signs with the new key within seconds; the old one stays published. */
async function keysCommand(args: string[]): Promise<void> {
  if (args[0] !== 'rotate' || args.length !== 1) throw new UsageError(`unknown keys command: ${args.join(' ')}`);
  await withServices(async (s) => {
    const kid = await s.oidc.keys.rotate();
    await s.audit.record('keys.rotate', { actor: 'cli', target: kid });
    print({ kid });
  });
}

export const extraCommands: Record<string, (args: string[]) => Promise<void>> = { app: appCommand, users: usersCommand, backup: backupCommand, restore: restoreCommand, keys: keysCommand };

export async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
        const workers = values.workers === undefined ? 1 : Number(values.workers);
        if (!Number.isInteger(workers) || workers < 1) throw new UsageError('--workers: a positive integer');
        // A failure to start is one line on stderr and exit code 1 (src/startup-errors.ts).
        await (workers > 1 && !isClusterWorker() ? runPrimary(workers) : serve()).catch(exitOnStartupFailure);
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
