import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace, type Run } from '../helpers/cli.js';

const ws = cliWorkspace('ac-user-cli-');
let db = '';
beforeAll(async () => {
  db = await ws.freshDatabase('user_cli');
  const created = await ws.cli(db, [
    'user',
    'create',
    '--username',
    'newbie1',
    '--password',
    'newbie-password-1',
    '--email',
    'newbie1@example.com',
    '--roles',
    'player,admin',
  ]);
  expect(created.code, created.stderr).toBe(0);
}, 60_000);
afterAll(() => ws.dispose());

/** Exit code 2 and exactly one line on stderr, matching `pattern`. */
function expectRefused(run: Run, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

async function stored(username: string) {
  const service = await ws.service(db);
  try {
    return await service.runtime.storage.users.findByUsername(username);
  } finally {
    await service.close();
  }
}

describe('account-center user: role names and stray arguments (docs/api.md §10)', () => {
  it('user roles refuses an empty name, a bad name, a stray argument or an unknown option, and changes nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['superuser,,x', 'y'],
        /^account-center: user roles: unexpected argument "y"$/,
      ],
      [
        ['superuser,,x'],
        /^account-center: user roles: an empty role name in "superuser,,x"$/,
      ],
      [
        ['player,'],
        /^account-center: user roles: an empty role name in "player,"$/,
      ],
      [[','], /an empty role name/],
      [
        ['player,Admin'],
        /^account-center: user roles: role "Admin" is not 1–32 of a-z 0-9 _ -$/,
      ],
      [['player,a b'], /role "a b" is not/],
      [[`x${'y'.repeat(32)}`], /role "xy+" is not/],
      [
        ['player', '--force'],
        /^account-center: user roles: unknown option --force$/,
      ],
    ];
    for (const [rest, pattern] of cases)
      expectRefused(
        await ws.cli(db, ['user', 'roles', 'newbie1', ...rest]),
        pattern,
      );
    expect((await stored('newbie1'))?.roles).toEqual(['player', 'admin']);

    const ok = await ws.cli(db, [
      'user',
      'roles',
      'newbie1',
      'player,admin,game-master_2',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).roles).toEqual([
      'player',
      'admin',
      'game-master_2',
    ]);
  }, 120_000);

  it('user create --roles, ban, unban and remove-second-factor refuse the same way', async () => {
    const create = [
      'user',
      'create',
      '--username',
      'newbie2',
      '--password',
      'newbie-password-2',
      '--email',
      'newbie2@example.com',
    ];
    expectRefused(
      await ws.cli(db, [...create, '--roles', 'player,,admin']),
      /^account-center: user create --roles: an empty role name in "player,,admin"$/,
    );
    expectRefused(
      await ws.cli(db, [...create, '--roles', 'Player']),
      /role "Player" is not/,
    );
    expectRefused(
      await ws.cli(db, [...create, 'extra']),
      /^account-center: user create: unexpected argument "extra"$/,
    );
    expectRefused(
      await ws.cli(db, [...create, '--admin']),
      /^account-center: user create: unknown option --admin$/,
    );
    expect(await stored('newbie2')).toBeUndefined();

    expectRefused(
      await ws.cli(db, ['user', 'ban', 'newbie1', 'now']),
      /^account-center: user ban: unexpected argument "now"$/,
    );
    expectRefused(
      await ws.cli(db, ['user', 'ban', 'newbie1', '--hard']),
      /^account-center: user ban: unknown option --hard$/,
    );
    expectRefused(
      await ws.cli(db, ['user', 'unban', 'newbie1', 'x']),
      /user unban: unexpected argument "x"/,
    );
    expectRefused(
      await ws.cli(db, ['user', 'remove-second-factor', 'newbie1', 'x']),
      /user remove-second-factor: unexpected argument "x"/,
    );
    expectRefused(
      await ws.cli(db, ['user', 'ban']),
      /^account-center: user ban: a username is required$/,
    );
    expect((await stored('newbie1'))?.banned).toBe(false);
  }, 120_000);

  it('user ban --until takes a duration as invite create --expires does, or an ISO time', async () => {
    const create = await ws.cli(db, [
      'user',
      'create',
      '--username',
      'banned3',
      '--password',
      'banned-password-3',
      '--email',
      'banned3@example.com',
    ]);
    expect(create.code, create.stderr).toBe(0);
    const before = Date.now();
    const banned = await ws.cli(db, [
      'user',
      'ban',
      'banned3',
      '--until',
      '3d',
      '--reason',
      'spam',
    ]);
    expect(banned.code, banned.stderr).toBe(0);
    const until = (await stored('banned3'))?.bannedUntil ?? 0;
    expect(until).toBeGreaterThanOrEqual(before + 3 * 86_400_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000 + 1000);

    expectRefused(
      await ws.cli(db, ['user', 'ban', 'banned3', '--until', '3 days']),
      /^account-center: user ban: --until/,
    );
    const iso = await ws.cli(db, [
      'user',
      'ban',
      'banned3',
      '--until',
      '2099-01-31T00:00:00Z',
    ]);
    expect(iso.code, iso.stderr).toBe(0);
    expect((await stored('banned3'))?.bannedUntil).toBe(
      Date.parse('2099-01-31T00:00:00Z'),
    );
  }, 120_000);
});
