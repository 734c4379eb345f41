import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from './helpers/redis.js';
import { call, within, type Reply } from './helpers/server.js';
import {
  type Deployment,
  instancesWithRedis,
  workersOnPostgres,
  workersOnSqlite,
} from './helpers/limit-deployments.js';

/**
 * Limits under real concurrency, against the real process: `serve --workers 2` on SQLite and
 * on PostgreSQL, and two instances sharing PostgreSQL and Redis. 50+ parallel requests, each on
 * its own connection so the workers take turns: N parallel tries never get more checks than
 * the limit (docs/api.md §1), and a disabled app is refused on every worker (docs/api.md §3).
 */
const PG = process.env.TEST_PG_URL;
const redisUp = PG ? await redisAvailable() : false;
const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

let seq = 0;
const name = (p: string) =>
  `${p}_${process.pid}_${++seq}_${Math.floor(Math.random() * 1e6)}`;
const countBy = (replies: Reply[]) =>
  replies.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});
const parallel = (n: number, run: (i: number) => Promise<Reply>) =>
  Promise.all(Array.from({ length: n }, (_, i) => run(i)));
const otherCode = (code: string, i: number) =>
  String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

function limitSuite(label: string, deploy: () => Promise<Deployment>) {
  describe(label, () => {
    let d: Deployment;
    const url = (i: number) => d.urls[i % d.urls.length]!;
    beforeAll(async () => {
      d = await deploy();
    }, 120_000);
    afterAll(async () => {
      await d?.stop();
    });

    async function register(): Promise<{
      username: string;
      email: string;
      token: string;
    }> {
      const username = name('lp');
      const email = `${username}@example.com`;
      const res = await call(url(0), 'POST', `${AUTH}/register`, {
        username,
        password: PASSWORD,
        email,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { username, email, token: res.body.access_token };
    }

    it('60 parallel login_by_code guesses with the real code last: no sign-in, and the code is used up', async () => {
      const u = await register();
      expect(
        (
          await call(url(0), 'POST', `${AUTH}/send_code`, {
            email: u.email,
            purpose: 'login',
          })
        ).status,
      ).toBe(200);
      const code = await d.smtp.codeFor(u.email);
      const res = await parallel(60, (i) =>
        call(url(i), 'POST', `${AUTH}/login_by_code`, {
          email: u.email,
          code: i === 59 ? code : otherCode(code, i),
        }),
      );
      expect(countBy(res)).toEqual({ 400: 60 });
      // Exactly 5 tries were counted (and compared), however the requests interleaved.
      expect(await d.attempts(u.email)).toBe(5);
      expect(
        (
          await call(url(1), 'POST', `${AUTH}/login_by_code`, {
            email: u.email,
            code,
          })
        ).status,
      ).toBe(400);
      expect(await d.attempts(u.email)).toBe(5);
    });

    it('100 parallel wrong device approvals: 10 answers, 90 × 429', async () => {
      const u = await register();
      const started = (await call(url(0), 'POST', `${AUTH}/device/start`, {}))
        .body.data;
      const res = await parallel(100, (i) =>
        call(
          url(i),
          'POST',
          `${AUTH}/device/approve`,
          { user_code: otherCode(started.user_code, i) },
          u.token,
        ),
      );
      expect(countBy(res)).toEqual({ 400: 10, 429: 90 });
      expect(
        (
          await call(
            url(1),
            'POST',
            `${AUTH}/device/approve`,
            { user_code: started.user_code },
            u.token,
          )
        ).status,
      ).toBe(429);
    });

    it('60 parallel failed sign-ins from one address against LIMIT_LOGIN_IP=20: 20 password checks', async () => {
      const res = await parallel(60, (i) =>
        call(url(i), 'POST', `${AUTH}/login`, {
          username: name('nobody'),
          password: 'wrong password!',
        }),
      );
      expect(countBy(res)).toEqual({ 401: 20, 429: 40 });
    });

    it('50 parallel send_code to one address: one code', async () => {
      const u = await register();
      const res = await parallel(50, (i) =>
        call(url(i), 'POST', `${AUTH}/send_code`, {
          email: u.email,
          purpose: 'login',
        }),
      );
      expect(countBy(res)).toEqual({ 200: 1, 429: 49 });
    });

    it('50 parallel exchanges of one code: one token, 49 × 授权码已被使用', async () => {
      const owner = await register();
      const app = await call(
        url(0),
        'POST',
        `${AUTH}/apps`,
        {
          display_name: 'Race',
          redirect_uris: ['https://race.example.com/cb'],
        },
        owner.token,
      );
      const { client_id, client_secret } = app.body.data;
      const code = (
        await call(
          url(0),
          'POST',
          `${AUTH}/authorize`,
          { client_id, redirect_uri: 'https://race.example.com/cb' },
          owner.token,
        )
      ).body.data.code;
      const res = await parallel(50, (i) =>
        call(url(i), 'POST', `${AUTH}/exchange`, {
          client_id,
          client_secret,
          code,
        }),
      );
      expect(countBy(res)).toEqual({ 200: 1, 400: 49 });
      expect(
        new Set(res.filter((r) => r.status === 400).map((r) => r.body.msg)),
      ).toEqual(new Set(['授权码已被使用']));
    });

    it("a disabled app's token is refused at me and refresh on every worker within 5 s; enabling restores it", async () => {
      const owner = await register();
      const app = await call(
        url(0),
        'POST',
        `${AUTH}/apps`,
        { display_name: 'Off', redirect_uris: ['https://off.example.com/cb'] },
        owner.token,
      );
      const { client_id, client_secret } = app.body.data;
      const code = (
        await call(
          url(0),
          'POST',
          `${AUTH}/authorize`,
          { client_id, redirect_uri: 'https://off.example.com/cb' },
          owner.token,
        )
      ).body.data.code;
      const token = (
        await call(url(0), 'POST', `${AUTH}/exchange`, {
          client_id,
          client_secret,
          code,
        })
      ).body.access_token;
      // Every worker has the app cached as active.
      expect(
        countBy(
          await parallel(10, (i) =>
            call(url(i), 'GET', `${AUTH}/me`, undefined, token),
          ),
        ),
      ).toEqual({ 200: 10 });
      expect(
        (
          await call(
            url(1),
            'POST',
            `${AUTH}/apps/disable`,
            { client_id, enabled: false },
            owner.token,
          )
        ).status,
      ).toBe(200);
      const took = await within(
        5000,
        async () =>
          (
            await parallel(10, (i) =>
              call(url(i), 'GET', `${AUTH}/me`, undefined, token),
            )
          ).every((r) => r.status === 403),
        100,
      );
      expect(took).toBeLessThan(5000);
      const refresh = await call(
        url(0),
        'POST',
        `${AUTH}/refresh`,
        undefined,
        token,
      );
      expect([refresh.status, refresh.body]).toEqual([
        403,
        { ok: false, msg: '该应用已被停用' },
      ]);
      expect(
        (
          await call(
            url(1),
            'POST',
            `${AUTH}/apps/disable`,
            { client_id, enabled: true },
            owner.token,
          )
        ).status,
      ).toBe(200);
      await within(
        5000,
        async () =>
          (
            await parallel(10, (i) =>
              call(url(i), 'GET', `${AUTH}/me`, undefined, token),
            )
          ).every((r) => r.status === 200),
        100,
      );
    });
  });
}

limitSuite('serve --workers 2 on SQLite', workersOnSqlite);

describe.skipIf(!PG)('on PostgreSQL', () => {
  limitSuite('serve --workers 2', () => workersOnPostgres(PG!));

  describe.skipIf(!redisUp)('with Redis', () => {
    limitSuite('two instances sharing PostgreSQL and Redis', () =>
      instancesWithRedis(PG!),
    );
  });
});
