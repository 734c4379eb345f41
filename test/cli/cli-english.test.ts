import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace, type Run } from '../helpers/cli.js';
import { CLI_EN } from '../../src/cli/catalogue/en.js';
import { CLI_ZH_CN } from '../../src/cli/catalogue/zh-CN.js';

const ws = cliWorkspace('ac-cli-english-');
let db = '';
beforeAll(async () => {
  db = await ws.freshDatabase('cli_english');
  const created = await ws.cli(db, [
    'user',
    'create',
    '--username',
    'owner1',
    '--password',
    'owner-password-1',
    '--email',
    'owner1@example.com',
  ]);
  expect(created.code, created.stderr).toBe(0);
}, 60_000);
afterAll(() => ws.dispose());

/** Exit code 2 and exactly one line on stderr, in English. */
function refusedWith(run: Run, line: string): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.split('\n').filter(Boolean), run.stderr).toEqual([line]);
}

describe('account-center speaks English', () => {
  it('an unknown user, a bad redirect URI and a missing sub-command each get one English line', async () => {
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'nobody_at_all']),
      'account-center: no such user',
    );
    refusedWith(
      await ws.cli(db, ['user', 'roles', 'nobody_at_all', 'player']),
      'account-center: no such user',
    );
    refusedWith(
      await ws.cli(db, [
        'app',
        'create',
        '--owner',
        'owner1',
        '--name',
        'Bad',
        '--redirect-uri',
        'not a uri',
      ]),
      'account-center: invalid redirect URI: an absolute URI without a fragment',
    );
    refusedWith(
      await ws.cli(db, [
        'app',
        'create',
        '--owner',
        'nobody_at_all',
        '--name',
        'X',
        '--redirect-uri',
        'https://x.example/cb',
      ]),
      'account-center: no such user',
    );
    refusedWith(
      await ws.cli(db, ['user']),
      'account-center: user: a sub-command is required (create, ban, unban, roles, remove-second-factor, links)',
    );
  }, 120_000);

  it("a Chinese locale gets the service's Chinese refusals; any other locale gets English", async () => {
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'nobody_at_all'], {
        LANG: 'zh_CN.UTF-8',
      }),
      'account-center: 用户不存在',
    );
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'nobody_at_all'], {
        LANG: 'en_US.UTF-8',
        LC_ALL: 'zh_TW.UTF-8',
      }),
      'account-center: 用户不存在',
    );
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'nobody_at_all'], {
        LANG: 'zh_CN.UTF-8',
        LC_ALL: 'C',
      }),
      'account-center: no such user',
    );
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'nobody_at_all'], {
        LANG: 'de_DE.UTF-8',
      }),
      'account-center: no such user',
    );
  }, 120_000);
});

describe("account-center speaks the operator's language in its own lines too", () => {
  const ZH = { LANG: 'zh_CN.UTF-8' };
  const EN = { LANG: 'en_US.UTF-8' };

  it('the usage text and the success lines', async () => {
    const zhHelp = await ws.cli(db, ['help'], ZH);
    expect(zhHelp.stdout.split('\n')[0]).toBe('用法：account-center [命令]');
    expect(zhHelp.stdout).toContain('执行数据库迁移后退出');
    expect((await ws.cli(db, ['help'], EN)).stdout.split('\n')[0]).toBe(
      'usage: account-center [command]',
    );
    expect((await ws.cli(db, ['migrate'], ZH)).stdout).toBe(
      '数据库迁移已完成\n',
    );
    expect((await ws.cli(db, ['migrate'], EN)).stdout).toBe(
      'migrations applied\n',
    );
    const exported = await ws.cli(db, ['users', 'export'], ZH);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^已导出 \d+ 个用户\n$/);
  }, 120_000);

  it('argument errors, with the usage text where it helps', async () => {
    refusedWith(
      await ws.cli(db, ['user'], ZH),
      'account-center: user：需要子命令（create, ban, unban, roles, remove-second-factor, links）',
    );
    refusedWith(
      await ws.cli(db, ['invite', 'create', '--uses', '0'], ZH),
      'account-center: invite create：--uses 须为正整数，收到“0”',
    );
    refusedWith(
      await ws.cli(db, ['invite', 'create', '--uses', '0'], EN),
      'account-center: invite create: --uses must be a positive integer, got "0"',
    );
    refusedWith(
      await ws.cli(db, ['user', 'ban', 'owner1', '--color', 'red'], ZH),
      'account-center: user ban：未知选项 --color',
    );
    const unknown = await ws.cli(db, ['frobnicate'], ZH);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n').slice(0, 2)).toEqual([
      'account-center: 未知命令：frobnicate',
      '用法：account-center [命令]',
    ]);
  }, 120_000);
});

describe('the CLI catalogues', () => {
  it('fill the same placeholders in both languages', () => {
    const placeholders = (text: string) =>
      [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(CLI_EN) as Array<keyof typeof CLI_EN>) {
      expect(CLI_ZH_CN[key].trim(), key).not.toBe('');
      expect(placeholders(CLI_ZH_CN[key]), key).toEqual(
        placeholders(CLI_EN[key]),
      );
    }
  });
});
