import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace, type Run } from '../helpers/cli.js';

const ws = cliWorkspace('ac-cli-english-');
let db = '';
beforeAll(async () => {
  db = await ws.freshDatabase('cli_english');
  const created = await ws.cli(db, ['user', 'create', '--username', 'owner1', '--password', 'owner-password-1', '--email', 'owner1@example.com']);
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
    refusedWith(await ws.cli(db, ['user', 'ban', 'nobody_at_all']), 'account-center: no such user');
    refusedWith(await ws.cli(db, ['user', 'roles', 'nobody_at_all', 'player']), 'account-center: no such user');
    refusedWith(
      await ws.cli(db, ['app', 'create', '--owner', 'owner1', '--name', 'Bad', '--redirect-uri', 'not a uri']),
      'account-center: invalid redirect URI: an absolute URI without a fragment',
    );
    refusedWith(await ws.cli(db, ['app', 'create', '--owner', 'nobody_at_all', '--name', 'X', '--redirect-uri', 'https://x.example/cb']), 'account-center: no such user');
    refusedWith(await ws.cli(db, ['user']), 'account-center: user: a sub-command is required (create, ban, unban, roles, remove-second-factor, links)');
  }, 120_000);

  it('a Chinese locale gets the service\'s Chinese refusals; any other locale gets English', async () => {
    refusedWith(await ws.cli(db, ['user', 'ban', 'nobody_at_all'], { LANG: 'zh_CN.UTF-8' }), 'account-center: 用户不存在');
    refusedWith(await ws.cli(db, ['user', 'ban', 'nobody_at_all'], { LANG: 'en_US.UTF-8', LC_ALL: 'zh_TW.UTF-8' }), 'account-center: 用户不存在');
    refusedWith(await ws.cli(db, ['user', 'ban', 'nobody_at_all'], { LANG: 'zh_CN.UTF-8', LC_ALL: 'C' }), 'account-center: no such user');
    refusedWith(await ws.cli(db, ['user', 'ban', 'nobody_at_all'], { LANG: 'de_DE.UTF-8' }), 'account-center: no such user');
  }, 120_000);
});
