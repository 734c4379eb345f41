import { describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from './helpers/redis.js';
import { call, within } from './helpers/server.js';
import {
  instancePair,
  me,
  PG,
  register,
  runName,
} from './multi-instance-setup.js';

/** Two real server processes on one PostgreSQL schema, sharing Redis. */
const REDIS_URL = TEST_REDIS_URL;
const redisUp = PG ? await redisAvailable() : false;
const AUTH = '/api/v1/auth';

describe.skipIf(!PG || !redisUp)('two instances sharing Redis', () => {
  const pair = instancePair((db) => ({
    REDIS_URL,
    REDIS_PREFIX: `test:${db.schema}`,
    LIMIT_LOGIN_PAIR: '3/60',
  }));

  it('the login rate limit counts across both instances', async () => {
    // An account name of this run only: the shared counters outlive the schema.
    const login = { username: runName('nobody'), password: 'wrong password!' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await call(
            i % 2 ? pair.B.url : pair.A.url,
            'POST',
            `${AUTH}/login`,
            login,
          )
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await call(pair.A.url, 'POST', `${AUTH}/login`, login);
    expect(limited.body).toEqual({
      ok: false,
      msg: '请求过于频繁，请稍后再试',
    });
  });

  it('a logout on A is seen at B at once through Redis', async () => {
    const user = await register(pair.A.url);
    expect((await me(pair.B.url, user.token)).status).toBe(200);
    expect(
      (await call(pair.A.url, 'POST', `${AUTH}/logout`, undefined, user.token))
        .status,
    ).toBe(200);
    // Polling alone needs up to a second; the published event needs a few milliseconds.
    const took = await within(
      5000,
      async () => (await me(pair.B.url, user.token)).status === 401,
      20,
    );
    expect(took).toBeLessThan(900);
  });
});
