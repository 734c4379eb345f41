import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type RunningServer } from '../helpers/server.js';
import {
  PrivatePostgres,
  PrivateRedis,
  privateServersAvailable,
} from './private-servers.js';
import {
  PASSWORD,
  prepareTraffic,
  send,
  startTraffic,
  uniqueName,
  type TrafficSetup,
} from './traffic.js';

/**
 * Redis stopped and started under traffic, with REDIS_URL set on two instances: as
 * docs/deployment.md says, the service falls back — rate limits are counted by each instance
 * alone (still enforced, never failing a request), changes reach the other instance through
 * the database within 5 s — and once Redis is back the counts are shared again by themselves.
 */
const AUTH = '/api/v1/auth';
const PAIR_MAX = 6;
const available = privateServersAvailable();
const usable = available.postgres && available.redis;

let pg: PrivatePostgres | undefined;
let redis: PrivateRedis | undefined;
const servers: RunningServer[] = [];
beforeAll(async () => {
  if (!usable) return;
  pg = await PrivatePostgres.create();
  redis = await PrivateRedis.create();
});
afterAll(async () => {
  for (const s of servers) await s.stop(5_000);
  await redis?.dispose();
  await pg?.dispose();
});

async function newAccount(
  base: string,
): Promise<{ name: string; token: string }> {
  const name = uniqueName('r');
  const reg = await send(base, 'POST', `${AUTH}/register`, {
    username: name,
    password: PASSWORD,
    email: `${name}@example.com`,
  });
  expect(reg.status).toBe(200);
  return { name, token: reg.body.access_token };
}

/** Wrong passwords for a fresh account, in turn at `bases`: the try that is first refused 429. */
async function firstRefusedTry(bases: string[]): Promise<number> {
  const { name } = await newAccount(bases[0]!);
  for (let i = 1; i <= PAIR_MAX * bases.length + 1; i++) {
    const r = await send(bases[i % bases.length]!, 'POST', `${AUTH}/login`, {
      username: name,
      password: 'not the password',
    });
    if (r.status === 429) return i;
    expect(r.status).toBe(401);
  }
  return Number.POSITIVE_INFINITY;
}

/** Milliseconds until a ban made at `bases[0]` is seen at `bases[1]`. */
async function banReachesOther(
  bases: string[],
  setup: TrafficSetup,
): Promise<number> {
  const victim = await newAccount(bases[1]!);
  const ban = await send(
    bases[0]!,
    'POST',
    `${AUTH}/admin/users/ban`,
    { username: victim.name, banned: true },
    setup.adminToken,
  );
  expect(ban.status).toBe(200);
  await waitFor(
    'the ban at the other instance',
    10_000,
    async () =>
      (await send(bases[1]!, 'GET', `${AUTH}/me`, undefined, victim.token))
        .status === 403,
  );
  return Date.now() - ban.at;
}

describe.skipIf(!usable)('Redis stopped and started under traffic', () => {
  it('falls back while it is away and shares again once it is back', {
    timeout: 180_000,
  }, async () => {
    const env = {
      DATABASE_URL: `${pg!.url}?pool_max=4`,
      REDIS_URL: redis!.url,
      LIMIT_LOGIN_PAIR: `${PAIR_MAX}/900`,
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) servers.push(await startServer(env));
    const bases = servers.map((s) => s.url);
    const setup = await prepareTraffic(env, bases[0]!);
    const traffic = startTraffic({ bases, setup });

    // With Redis: one count across both instances.
    expect(await firstRefusedTry(bases)).toBe(PAIR_MAX + 1);

    await redis!.stop();
    const downAt = Date.now();
    // Without it: each instance counts alone, and still refuses past the limit.
    expect(await firstRefusedTry([bases[0]!])).toBe(PAIR_MAX + 1);
    expect(await banReachesOther(bases, setup)).toBeLessThan(5_000 + 1_000);
    await waitFor('the fallback in the log', 10_000, () =>
      servers[0]!.output().includes('rate limit counted locally'),
    );
    const upAt = Date.now();
    await redis!.start();

    // Back by itself: one count across both instances again.
    await waitFor(
      'counts shared again',
      30_000,
      async () => (await firstRefusedTry(bases)) === PAIR_MAX + 1,
    );
    expect(await banReachesOther(bases, setup)).toBeLessThan(5_000 + 1_000);
    await traffic.stop();

    for (const s of servers)
      expect(s.child.exitCode ?? s.child.signalCode, s.output()).toBeNull();
    const broken = traffic.records.filter(
      (r) => r.reply.status === 0 || r.reply.status >= 500,
    );
    expect(
      broken.map((r) => `${r.op} ${r.reply.status} after ${r.reply.ms} ms`),
    ).toEqual([]);
    const duringOutage = traffic.records.filter(
      (r) => r.reply.at > downAt && r.reply.at < upAt,
    );
    expect(
      duringOutage.filter((r) => r.reply.status === 200).length,
    ).toBeGreaterThan(5);
  });
});
