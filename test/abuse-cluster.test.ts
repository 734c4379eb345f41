import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  runCli,
  startServer,
  type RunningServer,
} from './helpers/server.js';
import { freshPostgresSchema } from './helpers/db.js';
import { solve } from './helpers/captcha.js';

/**
 * `serve --workers 2` with CAPTCHA=altcha and REGISTRATION=invite, on SQLite and on
 * PostgreSQL: a solution and an invite code are counted once whichever worker answers.
 */
const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';
const databases: Array<{ kind: string; pgBase?: string }> = [
  { kind: 'sqlite' },
  ...(process.env.TEST_PG_URL
    ? [{ kind: 'postgres', pgBase: process.env.TEST_PG_URL }]
    : []),
];

describe.each(databases)(
  'abuse protection across workers ($kind)',
  ({ pgBase }) => {
    let server: RunningServer;
    let env: Record<string, string>;
    let dispose: () => Promise<void> = async () => {};

    beforeAll(async () => {
      if (pgBase) {
        const fresh = await freshPostgresSchema(pgBase);
        env = { DATABASE_URL: fresh.url };
        dispose = fresh.dispose;
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'ac-abuse-cluster-'));
        env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` };
        dispose = async () => rmSync(dir, { recursive: true, force: true });
      }
      Object.assign(env, {
        CAPTCHA: 'altcha',
        CAPTCHA_COST: '5000',
        REGISTRATION: 'invite',
      });
      server = await startServer(
        { ...env, LIMIT_REGISTER_IP: '1000/3600' },
        ['--workers', '2'],
        2,
      );
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await dispose();
    });

    const captcha = async () =>
      solve((await call(server.url, 'GET', `${AUTH}/captcha`)).body.data);
    const account = () => {
      const username = `ab_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
      return { username, password: PASSWORD, email: `${username}@example.com` };
    };
    const invite = async (uses: number) =>
      JSON.parse(
        await runCli(env, ['invite', 'create', '--uses', String(uses)]),
      ).code as string;

    it('20 parallel replays of one solution: one account', async () => {
      const code = await invite(20);
      const solution = await captcha();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(server.url, 'POST', `${AUTH}/register`, {
            ...account(),
            captcha: solution,
            invite_code: code,
          }),
        ),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((r) => r.status !== 200))
        expect(r).toEqual({
          status: 400,
          body: { ok: false, msg: '请完成人机验证' },
        });
    });

    it('a 4-use invite under 50 parallel registrations: four accounts', async () => {
      const code = await invite(4);
      const solutions = await Promise.all(
        Array.from({ length: 50 }, () => captcha()),
      );
      const answers = await Promise.all(
        solutions.map((solution) =>
          call(server.url, 'POST', `${AUTH}/register`, {
            ...account(),
            captcha: solution,
            invite_code: code,
          }),
        ),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
      for (const r of answers.filter((r) => r.status !== 200))
        expect(r).toEqual({
          status: 400,
          body: { ok: false, msg: '邀请码无效或已用完' },
        });
    });

    it('three failed logins on one worker ask for the CAPTCHA on the other', async () => {
      const who = account();
      expect(
        (
          await call(server.url, 'POST', `${AUTH}/register`, {
            ...who,
            captcha: await captcha(),
            invite_code: await invite(1),
          })
        ).status,
      ).toBe(200);
      for (let i = 0; i < 3; i++)
        expect(
          (
            await call(server.url, 'POST', `${AUTH}/login`, {
              username: who.username,
              password: 'wrong password',
            })
          ).status,
        ).toBe(401);
      // Fresh connections take turns between the workers: both must ask.
      for (let i = 0; i < 4; i++) {
        expect(
          await call(server.url, 'POST', `${AUTH}/login`, {
            username: who.username,
            password: PASSWORD,
          }),
        ).toEqual({ status: 400, body: { ok: false, msg: '请完成人机验证' } });
      }
      expect(
        (
          await call(server.url, 'POST', `${AUTH}/login`, {
            username: who.username,
            password: PASSWORD,
            captcha: await captcha(),
          })
        ).status,
      ).toBe(200);
    });
  },
);
