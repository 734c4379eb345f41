/**
 * `account-center role list | role add NAME [--name 显示名] [--name-en NAME] [--description D]
 * | role remove NAME`: the role catalogue (docs/api.md, roles), as the admin API keeps it.
 */
import { ArgumentError, strictArgs, withServices } from './common.js';
import { say } from './messages.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

const SUBCOMMANDS = ['list', 'add', 'remove'];
const CLI_ACTOR = { name: 'cli' };

export async function roleCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    strictArgs('role list', rest, {}, 0);
    await withServices(async (s) =>
      print({ roles: await s.admin.catalogue.list() }),
    );
    return;
  }
  if (sub === 'add') {
    const { positionals, values } = strictArgs(
      'role add',
      rest,
      {
        name: { type: 'string' },
        'name-en': { type: 'string' },
        description: { type: 'string' },
      },
      1,
    );
    const [name] = positionals;
    if (!name)
      throw new ArgumentError(say('roleNameRequired', { command: 'role add' }));
    await withServices(async (s) =>
      print({
        role: await s.admin.catalogue.save(
          {
            name,
            display_name: values.name,
            display_name_en: values['name-en'],
            description: values.description,
          },
          CLI_ACTOR,
        ),
      }),
    );
    return;
  }
  if (sub === 'remove') {
    const { positionals } = strictArgs('role remove', rest, {}, 1);
    const [name] = positionals;
    if (!name)
      throw new ArgumentError(
        say('roleNameRequired', { command: 'role remove' }),
      );
    await withServices(async (s) => {
      await s.admin.catalogue.remove(name, CLI_ACTOR);
      print({ removed: name });
    });
    return;
  }
  throw new ArgumentError(
    sub === undefined
      ? say('subRequired', {
          command: 'role',
          commands: SUBCOMMANDS.join(', '),
        })
      : say('subUnknown', {
          command: 'role',
          sub,
          commands: SUBCOMMANDS.join(', '),
        }),
  );
}
