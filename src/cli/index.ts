import { parseArgs } from 'node:util';
import { ConfigError } from '../config/index.js';
import { serve } from '../main.js';
import { exitOnStartupFailure } from '../app/startup-errors.js';
import { usersCommand } from './users-transfer.js';
import { backupCommand, restoreCommand } from './backup.js';
import { providerCommand, userLinks } from './providers.js';
import { inviteCommand } from './invites.js';
import { webhookCommand } from './webhooks.js';
import { appCommand } from './apps.js';
import { ArgumentError, strictArgs, UsageError, withServices } from './common.js';
import { cliMessage } from './messages.js';
import { isClusterWorker, runPrimary } from '../app/cluster.js';
import { DEFAULT_ROLES, isValidEmail, isValidPassword, isValidRole, isValidUsername } from '../features/accounts/account-rules.js';
import { AppError } from '../errors/index.js';

const USAGE = `usage: account-center [command]

  serve [--workers N]                  run the service (the default)
  migrate                              apply database migrations and exit
  user create --username U --password P --email E [--roles a,b]
  user ban U [--reason R] [--until T]  T: an ISO-8601 time with its zone (2030-01-31T00:00:00Z)
  user unban U | user roles U a,b
  user remove-second-factor U          remove the authenticator and passkeys of a locked-out user
  user links U                         the user's linked accounts (sign-in with other accounts)
  app create --owner U --name N --redirect-uri URI [--public] [--client-id ID] [client fields]
  app update ID [--name N] [--redirect-uri URI] [client fields]
             client fields: [--grant-types a,b] [--auth-method M] [--post-logout-redirect-uri URI]
             [--backchannel-logout-uri URI] [--backchannel-logout-session-required true|false]
  app grant-admin ID scope… | app revoke-admin ID [scope…]
                                       admin API scopes of the app's client_credentials tokens:
                                       admin:users:read, admin:users:ban, admin:users:roles
                                       (revoke-admin without a scope revokes all; docs/moderation.md)
  backup FILE | restore FILE           online copy of the database / restore into an empty one
  users export [--format jsonl|csv] [--output FILE]
  users import FILE [--format jsonl|csv]  add users from another system (docs/operations.md)
  keys rotate                          make a new OpenID Connect signing key current
  provider add --id ID --type TYPE --name NAME --client-id X [--client-secret S] [--issuer URL]
               [--scopes "a b"] [--trust-email] [--require-guild ID] [--api-key K] [overrides…]
  provider list | provider update ID [options] | provider enable|disable|remove ID
                                       sign-in providers (docs/upstream.md)
  invite create [--uses N] [--expires 7d] | invite list | invite remove ID
                                       invite codes for REGISTRATION=invite (docs/abuse.md)
  webhook add --url URL [--events a,b] [--description D] [--disabled]
  webhook list | webhook remove ID     endpoints told of bans and other changes (docs/webhooks.md)
  webhook enable ID | webhook disable ID
                                       switch an endpoint on (also one switched off for failing) or off

Configuration comes from the environment (PORT, HOST, DATABASE_URL, JWT_SECRET, …); see README.`;

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

/**
 * A comma-separated role list (`player,admin`): every name 1–32 of a-z 0-9 _ -. An empty name
 * (`a,,b`, a trailing comma) is refused, not dropped, so a typo never removes a role silently.
 */
function roleList(command: string, text: string): string[] {
  const roles = text.split(',').map((r) => r.trim());
  if (roles.some((r) => r === '')) throw new ArgumentError(`${command}: an empty role name in "${text}"`);
  const bad = roles.find((r) => !isValidRole(r));
  if (bad !== undefined) throw new ArgumentError(`${command}: role "${bad}" is not 1–32 of a-z 0-9 _ -`);
  return [...new Set(roles)];
}

async function userCreate(args: string[]): Promise<void> {
  const { values } = strictArgs('user create', args, { username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' }, roles: { type: 'string' } }, 0);
  const { username, password, email } = values as Record<string, string | undefined>;
  if (!username || !isValidUsername(username)) throw new UsageError('--username: 3–32 of A-Z a-z 0-9 _');
  if (!password || !isValidPassword(password)) throw new UsageError('--password: 8–128 characters');
  if (!email || !isValidEmail(email)) throw new UsageError('--email: a valid e-mail address');
  const rolesText = (values as Record<string, string | undefined>).roles;
  const roles = rolesText === undefined ? [...DEFAULT_ROLES] : roleList('user create --roles', rolesText);
  await withServices(async (s) => {
    const user = await s.admin.createUser({ username, password, email, roles }, 'cli').catch((err: unknown) => {
      // An operator reads which argument to change.
      if (err instanceof AppError && err.reason === 'usernameTaken') throw new UsageError('username already taken');
      if (err instanceof AppError && err.reason === 'emailTaken') throw new UsageError('email already taken');
      throw err;
    });
    print({ uid: user.id, username: user.username, email: user.email, roles: user.roles });
  });
}

const USER_COMMANDS = ['create', 'ban', 'unban', 'roles', 'remove-second-factor', 'links'];

async function userCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new ArgumentError(`user: a sub-command is required (${USER_COMMANDS.join(', ')})`);
  if (sub === 'create') return userCreate(rest);
  if (sub === 'links') return userLinks(rest);
  if (sub !== 'ban' && sub !== 'unban' && sub !== 'roles' && sub !== 'remove-second-factor') throw new UsageError(`unknown user command: ${sub ?? ''}`);
  // Each takes exactly its arguments and options: anything more is refused before any change.
  const banOptions = { reason: { type: 'string' }, until: { type: 'string' } } as const;
  const { positionals, values } = strictArgs(`user ${sub}`, rest, sub === 'ban' ? banOptions : {}, sub === 'roles' ? 2 : 1);
  const [username, roleText] = positionals;
  if (!username) throw new ArgumentError(`user ${sub}: a username is required`);
  if (sub === 'ban' || sub === 'unban') {
    const terms = values as { reason?: string; until?: string };
    await withServices(async (s) => print(await s.admin.setBanned(username, sub === 'ban', 'cli', undefined, terms)));
  } else if (sub === 'roles') {
    if (roleText === undefined) throw new ArgumentError('user roles U a,b: a comma-separated role list is required');
    const roles = roleList('user roles', roleText);
    await withServices(async (s) => print(await s.admin.setRoles(username, roles, 'cli')));
  } else {
    await withServices(async (s) => print(await s.secondFactor.adminRemove(await s.admin.userNamed(username), 'cli')));
  }
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

/** Commands that later modules add (e.g. `app`), keyed by their first word. */
export const extraCommands: Record<string, (args: string[]) => Promise<void>> = { app: appCommand, users: usersCommand, backup: backupCommand, restore: restoreCommand, keys: keysCommand, provider: providerCommand, invite: inviteCommand, webhook: webhookCommand };

export async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
        const workers = values.workers === undefined ? 1 : Number(values.workers);
        if (!Number.isInteger(workers) || workers < 1) throw new UsageError('--workers: a positive integer');
        // A failure to start is one line on stderr and exit code 1 (src/app/startup-errors.ts).
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
      process.stderr.write(`account-center: ${cliMessage(err)}\n`);
      if ((err instanceof UsageError && !(err instanceof ArgumentError)) || badArgs) process.stderr.write(USAGE + '\n');
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
