/**
 * `account-center provider …` (docs/upstream.md): the sign-in providers, as the admin API and
 * the console manage them. Secrets are never printed; `list` shows `has_client_secret`.
 */
import { ProviderOptionError } from '../features/upstream/index.js';
import { ArgumentError, strictArgs, withServices } from './common.js';
import { loadConfig } from '../config/index.js';
import { say } from './messages.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Options of `add` and `update`, each named as the API field with `-` for `_`. */
const TEXT_OPTIONS = [
  'name',
  'client-id',
  'client-secret',
  'api-key',
  'issuer',
  'scopes',
  'require-guild',
  'authorization-endpoint',
  'token-endpoint',
  'userinfo-endpoint',
  'openid-endpoint',
  'api-base',
  'subject-field',
  'username-field',
  'email-field',
  'token-endpoint-auth-method',
  'role-map',
  'role-claim',
] as const;

const SETTING_OPTIONS = {
  ...Object.fromEntries(
    TEXT_OPTIONS.map((o) => [o, { type: 'string' as const }]),
  ),
  // The server whose roles --role-map names (`guild_id`); --require-guild only admits its members.
  guild: { type: 'string' as const },
  'trust-email': { type: 'boolean' as const },
  'no-trust-email': { type: 'boolean' as const },
};

const SUBCOMMANDS = ['add', 'list', 'update', 'enable', 'disable', 'remove'];

/** The parsed options as the API's fields (`client-id` → `client_id`). */
function inputOf(
  command: string,
  values: Record<string, string | boolean | undefined>,
) {
  if (values['trust-email'] && values['no-trust-email'])
    throw new ArgumentError(say('trustEmailBoth', { command }));
  const input: Record<string, string | boolean> = {};
  for (const option of TEXT_OPTIONS) {
    const value = values[option];
    if (typeof value === 'string') input[option.replace(/-/g, '_')] = value;
  }
  if (typeof values.guild === 'string') input.guild_id = values.guild;
  if (values['trust-email']) input.trust_email = true;
  if (values['no-trust-email']) input.trust_email = false;
  return input;
}

/** A rule broken by an option: one line naming it, exit 2. */
function asArgumentError(command: string) {
  return (err: unknown): never => {
    if (err instanceof ProviderOptionError)
      throw new ArgumentError(
        `${command}: --${err.field.replace(/_/g, '-')} ${err.why}`,
      );
    throw err;
  };
}

/**
 * Callback addresses are built on BASE_URL. The server may have it in its own environment while
 * this shell does not: then the address printed is this machine's default, and the line says so.
 */
function noteWithoutBaseUrl(): void {
  if (process.env.BASE_URL) return;
  process.stderr.write(
    `account-center: ${say('baseUrlNotSet', { url: loadConfig().config.baseUrl })}\n`,
  );
}

export async function providerCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || !SUBCOMMANDS.includes(sub)) {
    throw new ArgumentError(
      sub === undefined
        ? say('subRequired', {
            command: 'provider',
            commands: SUBCOMMANDS.join(', '),
          })
        : say('subUnknown', {
            command: 'provider',
            sub,
            commands: SUBCOMMANDS.join(', '),
          }),
    );
  }
  const command = `provider ${sub}`;
  const actor = { name: 'cli' };
  if (sub === 'list') {
    strictArgs(command, rest, {}, 0);
    await withServices(async (s) => print(await s.upstream.providers.list()));
    noteWithoutBaseUrl();
    return;
  }
  if (sub === 'add') {
    const { values } = strictArgs(
      command,
      rest,
      { id: { type: 'string' }, type: { type: 'string' }, ...SETTING_OPTIONS },
      0,
    );
    const { id, type } = values as Record<string, string | undefined>;
    if (!id)
      throw new ArgumentError(say('optionRequired', { command, option: 'id' }));
    if (!type)
      throw new ArgumentError(
        say('optionRequired', { command, option: 'type' }),
      );
    if (!(values as Record<string, unknown>).name)
      throw new ArgumentError(
        say('optionRequired', { command, option: 'name' }),
      );
    const input = inputOf(
      command,
      values as Record<string, string | boolean | undefined>,
    );
    await withServices(async (s) =>
      print(
        await s.upstream.providers
          .add(id, type, input, actor)
          .catch(asArgumentError(command)),
      ),
    );
    noteWithoutBaseUrl();
    return;
  }
  const { values, positionals } = strictArgs(
    command,
    rest,
    sub === 'update' ? SETTING_OPTIONS : {},
    1,
  );
  const id = positionals[0];
  if (!id) throw new ArgumentError(say('providerIdRequired', { command }));
  await withServices(async (s) => {
    const providers = s.upstream.providers;
    if (sub === 'update') {
      const input = inputOf(
        command,
        values as Record<string, string | boolean | undefined>,
      );
      if (Object.keys(input).length === 0)
        throw new ArgumentError(say('nothingToChange', { command }));
      print(
        await providers
          .update(id, input, actor)
          .catch(asArgumentError(command)),
      );
      noteWithoutBaseUrl();
    } else if (sub === 'remove') {
      await providers.remove(id, actor);
      print({ removed: id });
    } else {
      print(await providers.setEnabled(id, sub === 'enable', actor));
    }
  });
}

/** `user links U`: the user's linked accounts. */
export async function userLinks(args: string[]): Promise<void> {
  const { positionals } = strictArgs('user links', args, {}, 1);
  const username = positionals[0];
  if (!username)
    throw new ArgumentError(say('usernameRequired', { command: 'user links' }));
  await withServices(async (s) =>
    print(await s.upstream.links.linksOf(await s.admin.userNamed(username))),
  );
}
