/**
 * `account-center webhook add|list|remove|enable|disable` (docs/api.md §15.2): the endpoints
 * the admin API and the console manage. `add` prints the signing secret, the only time it is
 * shown; `enable` switches back on an endpoint switched off after failing for 3 days.
 */
import { ArgumentError, strictArgs, withServices } from './common.js';
import { AppError } from '../errors/index.js';
import { refusedTarget } from '../platform/net/guarded-post.js';
import { say } from './messages.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const SUBCOMMANDS = ['add', 'list', 'remove', 'enable', 'disable'];

/** An internal address is refused for want of a setting, not for its form: the refusal names the setting. */
function nameThePrivateSetting(url: string) {
  return (err: unknown): never => {
    const internal =
      URL.canParse(url) &&
      refusedTarget(new URL(url), false) === 'an internal address';
    if (err instanceof AppError && err.reason === 'badParam' && internal)
      throw new ArgumentError(say('webhookPrivate', { url }));
    throw err;
  };
}

export async function webhookCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'add') {
    const { values } = strictArgs(
      'webhook add',
      rest,
      {
        url: { type: 'string' },
        events: { type: 'string' },
        description: { type: 'string' },
        disabled: { type: 'boolean' },
      },
      0,
    );
    const v = values as {
      url?: string;
      events?: string;
      description?: string;
      disabled?: boolean;
    };
    if (!v.url)
      throw new ArgumentError(
        say('optionRequired', { command: 'webhook add', option: 'url' }),
      );
    const events = v.events
      ?.split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    await withServices(async (s) =>
      print(
        await s.webhooks
          .add(
            {
              url: v.url!,
              events,
              description: v.description,
              enabled: !v.disabled,
            },
            'cli',
          )
          .catch(nameThePrivateSetting(v.url!)),
      ),
    );
    return;
  }
  if (sub === 'list') {
    strictArgs('webhook list', rest, {}, 0);
    await withServices(async (s) =>
      print({ webhooks: await s.webhooks.list() }),
    );
    return;
  }
  if (sub === 'remove') {
    const { positionals } = strictArgs('webhook remove', rest, {}, 1);
    const [id] = positionals;
    if (!id) throw new ArgumentError(say('webhookIdRequired'));
    await withServices(async (s) => {
      await s.webhooks.remove(id, 'cli');
      print({ removed: id });
    });
    return;
  }
  if (sub === 'enable' || sub === 'disable') {
    const { positionals } = strictArgs(`webhook ${sub}`, rest, {}, 1);
    const [id] = positionals;
    if (!id)
      throw new ArgumentError(
        say('webhookIdRequiredFor', { command: `webhook ${sub}` }),
      );
    await withServices(async (s) =>
      print(await s.webhooks.update({ id, enabled: sub === 'enable' }, 'cli')),
    );
    return;
  }
  throw new ArgumentError(
    say('subRequired', {
      command: 'webhook',
      commands: SUBCOMMANDS.join(', '),
    }),
  );
}
