/**
 * `account-center invite create [--uses N] [--expires 7d] | invite list | invite remove ID`:
 * the invite codes of REGISTRATION=invite (docs/abuse.md), as the admin API makes them.
 */
import {
  ArgumentError,
  durationSeconds,
  strictArgs,
  withServices,
} from './common.js';
import { say } from './messages.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

const SUBCOMMANDS = ['create', 'list', 'remove'];

export async function inviteCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = strictArgs(
      'invite create',
      rest,
      { uses: { type: 'string' }, expires: { type: 'string' } },
      0,
    );
    let uses: number | undefined;
    if (values.uses !== undefined) {
      uses = /^\d{1,9}$/.test(values.uses) ? Number(values.uses) : NaN;
      if (!(uses >= 1))
        throw new ArgumentError(
          say('inviteUses', { value: String(values.uses) }),
        );
    }
    const expiresInS =
      values.expires === undefined
        ? undefined
        : durationSeconds(values.expires);
    if (values.expires !== undefined && expiresInS === undefined) {
      throw new ArgumentError(
        say('inviteExpires', { value: String(values.expires) }),
      );
    }
    await withServices(async (s) =>
      print(await s.abuse.invites.create({ uses, expiresInS }, 'cli')),
    );
    return;
  }
  if (sub === 'list') {
    strictArgs('invite list', rest, {}, 0);
    await withServices(async (s) =>
      print({ invites: await s.abuse.invites.list() }),
    );
    return;
  }
  if (sub === 'remove') {
    const { positionals } = strictArgs('invite remove', rest, {}, 1);
    const [id] = positionals;
    if (!id) throw new ArgumentError(say('inviteIdRequired'));
    await withServices(async (s) => {
      await s.abuse.invites.remove(id);
      print({ removed: id });
    });
    return;
  }
  throw new ArgumentError(
    sub === undefined
      ? say('subRequired', {
          command: 'invite',
          commands: SUBCOMMANDS.join(', '),
        })
      : say('subUnknown', {
          command: 'invite',
          sub,
          commands: SUBCOMMANDS.join(', '),
        }),
  );
}
