import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { redisAvailable, TEST_REDIS_URL } from './helpers/redis.js';
import { call, startServer, within, type Reply } from './helpers/server.js';
import { SmtpSink } from './helpers/smtp.js';

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
const LIMITS = {
  IP_RATE_LIMITS: 'on',
  LIMIT_REGISTER_IP: '10000/3600',
  LIMIT_SEND_CODE_IP: '10000/3600',
  LIMIT_LOGIN_IP: '20/900',
  LIMIT_DEVICE_START_IP: '10000/60',
};

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

interface Deployment {
  /** Base URLs to spread requests over (one for a cluster, one per instance otherwise). */
  urls: string[];
  smtp: SmtpSink;
  /** The tries counted on the newest e-mail code of an address, read from the database. */
  attempts(email: string): Promise<number>;
  stop(): Promise<void>;
}

const NEWEST_CODE_ATTEMPTS =
  'select attempts from email_codes where email = $1 order by id desc limit 1';

async function sqliteAttempts(file: string, email: string): Promise<number> {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(file, { readonly: true });
  try {
    return Number(
      (
        db.prepare(NEWEST_CODE_ATTEMPTS.replace('$1', '?')).get(email) as {
          attempts: number;
        }
      ).attempts,
    );
  } finally {
    db.close();
  }
}

async function postgresAttempts(
  url: string,
  schema: string,
  email: string,
): Promise<number> {
  const client = new pg.Client({ connectionString: url.split('?')[0] });
  await client.connect();
  try {
    await client.query(`set search_path to ${schema}`);
    return Number(
      (await client.query(NEWEST_CODE_ATTEMPTS, [email])).rows[0].attempts,
    );
  } finally {
    await client.end();
  }
}

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

async function smtpSink(): Promise<{ smtp: SmtpSink; smtpUrl: string }> {
  const smtp = new SmtpSink();
  return { smtp, smtpUrl: await smtp.start() };
}

limitSuite('serve --workers 2 on SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-limits-'));
  const { smtp, smtpUrl } = await smtpSink();
  const file = join(dir, 'db.sqlite');
  const server = await startServer(
    { ...LIMITS, DATABASE_URL: `sqlite:${file}`, SMTP_URL: smtpUrl },
    ['--workers', '2'],
    2,
  );
  return {
    urls: [server.url],
    smtp,
    attempts: (email) => sqliteAttempts(file, email),
    async stop() {
      await server.stop();
      await smtp.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe.skipIf(!PG)('on PostgreSQL', () => {
  limitSuite('serve --workers 2', async () => {
    const db = await freshPostgresSchema(PG!);
    const { smtp, smtpUrl } = await smtpSink();
    const server = await startServer(
      { ...LIMITS, DATABASE_URL: `${db.url}&pool_max=6`, SMTP_URL: smtpUrl },
      ['--workers', '2'],
      2,
    );
    return {
      urls: [server.url],
      smtp,
      attempts: (email) => postgresAttempts(PG!, db.schema, email),
      async stop() {
        await server.stop();
        await smtp.stop();
        await db.dispose();
      },
    };
  });

  describe.skipIf(!redisUp)('with Redis', () => {
    limitSuite('two instances sharing PostgreSQL and Redis', async () => {
      const db = await freshPostgresSchema(PG!);
      const { smtp, smtpUrl } = await smtpSink();
      // Counters live on in Redis between runs, and user ids restart in every fresh schema:
      // this deployment's keys get a name of their own, so every counter starts from zero.
      const env = {
        ...LIMITS,
        DATABASE_URL: `${db.url}&pool_max=6`,
        SMTP_URL: smtpUrl,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: `test:${db.schema}`,
      };
      const servers = await Promise.all([startServer(env), startServer(env)]);
      return {
        urls: servers.map((s) => s.url),
        smtp,
        attempts: (email) => postgresAttempts(PG!, db.schema, email),
        async stop() {
          await Promise.all(servers.map((s) => s.stop()));
          await smtp.stop();
          await db.dispose();
        },
      };
    });
  });
});
