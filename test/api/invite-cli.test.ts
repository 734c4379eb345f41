import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkspace } from '../helpers/cli.js';
import { SERVER_SECRET } from '../helpers/server.js';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';

/** `account-center invite create [--uses N] [--expires 7d]`, `invite list`, `invite remove` (docs/abuse.md). */
const ws = cliWorkspace('ac-invite-cli-');
let db: string;
let service: TestApp;

beforeAll(async () => {
  db = await ws.freshDatabase('invites');
  expect((await ws.cli(db, ['migrate'])).code).toBe(0);
  service = await createTestApp({
    DATABASE_URL: db,
    JWT_SECRET: SERVER_SECRET,
    REGISTRATION: 'invite',
  });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await ws.dispose();
});

const register = (invite_code: string) => {
  const username = uniqueName('inv');
  return service.post('/api/v1/auth/register', {
    username,
    password: 'correct horse battery',
    email: `${username}@example.com`,
    invite_code,
  });
};

describe('account-center invite', () => {
  it('creates a code with its uses and expiry that the running service accepts', async () => {
    const before = Date.now();
    const run = await ws.cli(db, [
      'invite',
      'create',
      '--uses',
      '2',
      '--expires',
      '7d',
    ]);
    expect(run.code).toBe(0);
    const made = JSON.parse(run.stdout) as {
      id: string;
      code: string;
      uses: number;
      used: number;
      expires_at: number;
      created_by: string;
    };
    expect(made).toMatchObject({ uses: 2, used: 0, created_by: 'cli' });
    expect(made.expires_at).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(made.expires_at).toBeLessThan(Date.now() + 7 * 86_400_000 + 60_000);
    expect((await register(made.code)).statusCode).toBe(200);
    expect((await register(made.code)).statusCode).toBe(200);
    expect(failure(await register(made.code))).toEqual([
      400,
      refusal('邀请码无效或已用完'),
    ]);
    const list = JSON.parse((await ws.cli(db, ['invite', 'list'])).stdout) as {
      invites: Array<{ id: string; used: number }>;
    };
    expect(list.invites.find((i) => i.id === made.id)).toMatchObject({
      used: 2,
    });
    expect(JSON.stringify(list)).not.toContain(made.code);
  });

  it('one use and no expiry by default; remove deletes a code', async () => {
    const made = JSON.parse(
      (await ws.cli(db, ['invite', 'create'])).stdout,
    ) as { id: string; code: string };
    expect(made).toMatchObject({ uses: 1, expires_at: null });
    expect((await ws.cli(db, ['invite', 'remove', made.id])).code).toBe(0);
    expect(failure(await register(made.code))).toEqual([
      400,
      refusal('邀请码无效或已用完'),
    ]);
    const again = await ws.cli(db, ['invite', 'remove', made.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no such invite code');
  });

  it('a bad option is one line and exit 2', async () => {
    for (const args of [
      ['invite', 'create', '--uses', '0'],
      ['invite', 'create', '--expires', 'soon'],
      ['invite', 'create', '--bogus'],
      ['invite'],
    ]) {
      const run = await ws.cli(db, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
