import { parseArgs } from 'node:util';
import { ConfigError } from '../config/index.js';
import {
  ArgumentError,
  durationSeconds,
  strictArgs,
  UsageError,
  withServices,
} from './common.js';
import { cliMessage, say } from './messages.js';
import {
  DEFAULT_ROLES,
  isValidEmail,
  isValidPassword,
  isValidRole,
  isValidUsername,
} from '../features/accounts/account-rules.js';
import { AppError } from '../errors/index.js';

/** The usage text, in the operator's language. */
const usage = () => say('usage');

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/**
 * A comma-separated role list (`player,admin`): every name 1–32 of a-z 0-9 _ -. An empty name
 * (`a,,b`, a trailing comma) is refused, not dropped, so a typo never removes a role silently.
 */
function roleList(command: string, text: string): string[] {
  const roles = text.split(',').map((r) => r.trim());
  if (roles.some((r) => r === ''))
    throw new ArgumentError(say('emptyRole', { command, text }));
  const bad = roles.find((r) => !isValidRole(r));
  if (bad !== undefined)
    throw new ArgumentError(say('badRole', { command, role: bad }));
  return [...new Set(roles)];
}

async function userCreate(args: string[]): Promise<void> {
  const { values } = strictArgs(
    'user create',
    args,
    {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      roles: { type: 'string' },
    },
    0,
  );
  const { username, password, email } = values as Record<
    string,
    string | undefined
  >;
  if (!username || !isValidUsername(username))
    throw new UsageError(say('badUsername'));
  if (!password || !isValidPassword(password))
    throw new UsageError(say('badPassword'));
  if (!email || !isValidEmail(email)) throw new UsageError(say('badEmail'));
  const rolesText = (values as Record<string, string | undefined>).roles;
  const roles =
    rolesText === undefined
      ? [...DEFAULT_ROLES]
      : roleList('user create --roles', rolesText);
  await withServices(async (s) => {
    const user = await s.admin
      .createUser({ username, password, email, roles }, 'cli')
      .catch((err: unknown) => {
        // An operator reads which argument to change.
        if (err instanceof AppError && err.reason === 'usernameTaken')
          throw new UsageError(say('usernameTaken'));
        if (err instanceof AppError && err.reason === 'emailTaken')
          throw new UsageError(say('emailTaken'));
        throw err;
      });
    print({
      uid: user.id,
      username: user.username,
      email: user.email,
      roles: user.roles,
    });
  });
}

/** `--until` as the API takes it (an ISO-8601 time), or a duration from now as `invite create --expires` takes. */
function banTerms(terms: { reason?: string; until?: string }): {
  reason?: string;
  until?: string;
} {
  const seconds =
    terms.until === undefined ? undefined : durationSeconds(terms.until);
  return seconds === undefined
    ? terms
    : { ...terms, until: new Date(Date.now() + seconds * 1000).toISOString() };
}

const USER_COMMANDS = [
  'create',
  'ban',
  'unban',
  'roles',
  'remove-second-factor',
  'links',
];

async function userCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined)
    throw new ArgumentError(
      say('subRequired', {
        command: 'user',
        commands: USER_COMMANDS.join(', '),
      }),
    );
  if (sub === 'create') return userCreate(rest);
  if (sub === 'links') return (await import('./providers.js')).userLinks(rest);
  if (
    sub !== 'ban' &&
    sub !== 'unban' &&
    sub !== 'roles' &&
    sub !== 'remove-second-factor'
  )
    throw new UsageError(say('unknownCommandOf', { group: 'user', sub }));
  // Each takes exactly its arguments and options: anything more is refused before any change.
  const banOptions = {
    reason: { type: 'string' },
    until: { type: 'string' },
  } as const;
  const { positionals, values } = strictArgs(
    `user ${sub}`,
    rest,
    sub === 'ban' ? banOptions : {},
    sub === 'roles' ? 2 : 1,
  );
  const [username, roleText] = positionals;
  if (!username)
    throw new ArgumentError(
      say('usernameRequired', { command: `user ${sub}` }),
    );
  if (sub === 'ban' || sub === 'unban') {
    const terms = banTerms(values as { reason?: string; until?: string });
    await withServices(async (s) =>
      print(
        await s.admin
          .setBanned(username, sub === 'ban', 'cli', undefined, terms)
          .catch((err: unknown) => {
            if (
              err instanceof AppError &&
              err.reason === 'badParam' &&
              err.msg.endsWith('until')
            )
              throw new ArgumentError(
                say('banUntil', { value: terms.until ?? '' }),
              );
            throw err;
          }),
      ),
    );
  } else if (sub === 'roles') {
    if (roleText === undefined)
      throw new ArgumentError(say('roleListRequired'));
    const roles = roleList('user roles', roleText);
    await withServices(async (s) =>
      print(await s.admin.setRoles(username, roles, 'cli')),
    );
  } else {
    await withServices(async (s) =>
      print(
        await s.secondFactor.adminRemove(
          await s.admin.userNamed(username),
          'cli',
        ),
      ),
    );
  }
}

/** `keys rotate`: every instance signs with the new key within seconds; the old one stays published. */
async function keysCommand(args: string[]): Promise<void> {
  if (args[0] !== 'rotate' || args.length !== 1)
    throw new UsageError(
      say('unknownCommandOf', { group: 'keys', sub: args.join(' ') }),
    );
  await withServices(async (s) => {
    const kid = await s.oidc.keys.rotate();
    await s.audit.record('keys.rotate', { actor: 'cli', target: kid });
    print({ kid });
  });
}

/**
 * The other commands, keyed by their first word. Each module is loaded when its command runs,
 * so a command pays only for what it uses.
 */
const extraCommands: Record<string, (args: string[]) => Promise<void>> = {
  app: async (args) => (await import('./apps.js')).appCommand(args),
  users: async (args) =>
    (await import('./users-transfer.js')).usersCommand(args),
  backup: async (args) => (await import('./backup.js')).backupCommand(args),
  restore: async (args) => (await import('./backup.js')).restoreCommand(args),
  keys: keysCommand,
  provider: async (args) =>
    (await import('./providers.js')).providerCommand(args),
  invite: async (args) => (await import('./invites.js')).inviteCommand(args),
  role: async (args) => (await import('./roles.js')).roleCommand(args),
  webhook: async (args) => (await import('./webhooks.js')).webhookCommand(args),
};

/** `serve`: one process, or a primary that forks `workers` of them. */
async function serveCommand(workers: number): Promise<void> {
  const [{ isClusterWorker, runPrimary }, { serve }, { exitOnStartupFailure }] =
    await Promise.all([
      import('../app/cluster.js'),
      import('../main.js'),
      import('../app/startup-errors.js'),
    ]);
  // A failure to start is one line on stderr and exit code 1 (src/app/startup-errors.ts).
  await (workers > 1 && !isClusterWorker()
    ? runPrimary(workers)
    : serve()
  ).catch(exitOnStartupFailure);
}

export async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({
          args,
          options: { workers: { type: 'string' } },
        });
        const workers =
          values.workers === undefined ? 1 : Number(values.workers);
        if (!Number.isInteger(workers) || workers < 1)
          throw new UsageError(say('workers'));
        await serveCommand(workers);
        return;
      }
      case 'migrate':
        await withServices(async () => undefined);
        process.stdout.write(`${say('migrated')}\n`);
        return;
      case 'user':
        await userCommand(args);
        return;
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${usage()}\n`);
        return;
      default: {
        const extra = extraCommands[command];
        if (!extra) throw new UsageError(say('unknownCommand', { command }));
        await extra(args);
      }
    }
  } catch (err) {
    // node:util parseArgs rejects unknown options and missing values with these codes.
    const badArgs = String((err as { code?: unknown }).code ?? '').startsWith(
      'ERR_PARSE_ARGS_',
    );
    if (
      err instanceof UsageError ||
      err instanceof ConfigError ||
      err instanceof AppError ||
      badArgs
    ) {
      process.stderr.write(`account-center: ${cliMessage(err)}\n`);
      if (
        (err instanceof UsageError && !(err instanceof ArgumentError)) ||
        badArgs
      )
        process.stderr.write(`${usage()}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
