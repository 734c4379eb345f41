import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { redisAvailable, TEST_REDIS_URL } from './helpers/redis.js';
import {
  call,
  startServer,
  within,
  type RunningServer,
} from './helpers/server.js';

/**
 * Two real server processes on one PostgreSQL schema. TEST_PG_URL is set by vitest.config.ts
 * when PostgreSQL is reachable (without it these tests are skipped; in CI the run fails).
 */
const PG = process.env.TEST_PG_URL;
const REDIS_URL = TEST_REDIS_URL;
const redisUp = PG ? await redisAvailable() : false;
const PASSWORD = 'correct horse battery';
const AUTH = '/api/v1/auth';

let seq = 0;
const name = (p: string) =>
  `${p}_${process.pid}_${++seq}_${Math.floor(Math.random() * 1e6)}`;

async function register(
  base: string,
): Promise<{ username: string; token: string }> {
  const username = name('mi');
  const res = await call(base, 'POST', `${AUTH}/register`, {
    username,
    password: PASSWORD,
    email: `${username}@example.com`,
  });
  expect(res.status).toBe(200);
  return { username, token: res.body.access_token };
}

async function startPair(
  env: Record<string, string>,
): Promise<[RunningServer, RunningServer]> {
  const [a, b] = await Promise.all([startServer(env), startServer(env)]);
  return [a, b];
}

describe.skipIf(!PG || !redisUp)('two instances sharing Redis', () => {
  let db: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let A: RunningServer;
  let B: RunningServer;

  beforeAll(async () => {
    db = await freshPostgresSchema(PG!);
    [A, B] = await startPair({
      DATABASE_URL: `${db.url}&pool_max=4`,
      REDIS_URL,
      REDIS_PREFIX: `test:${db.schema}`,
      LIMIT_LOGIN_PAIR: '3/60',
    });
  });
  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()]);
    await db?.dispose();
  });

  it('the login rate limit counts across both instances', async () => {
    // An account name of this run only: the shared counters outlive the schema.
    const login = { username: name('nobody'), password: 'wrong password!' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await call(i % 2 ? B.url : A.url, 'POST', `${AUTH}/login`, login))
          .status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await call(A.url, 'POST', `${AUTH}/login`, login);
    expect(limited.body).toEqual({
      ok: false,
      msg: '请求过于频繁，请稍后再试',
    });
  });

  it('a logout on A is seen at B at once through Redis', async () => {
    const user = await register(A.url);
    expect(
      (await call(B.url, 'GET', `${AUTH}/me`, undefined, user.token)).status,
    ).toBe(200);
    expect(
      (await call(A.url, 'POST', `${AUTH}/logout`, undefined, user.token))
        .status,
    ).toBe(200);
    // Polling alone needs up to a second; the published event needs a few milliseconds.
    const took = await within(
      5000,
      async () =>
        (await call(B.url, 'GET', `${AUTH}/me`, undefined, user.token))
          .status === 401,
      20,
    );
    expect(took).toBeLessThan(900);
  });
});
