import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type RunningServer } from '../helpers/server.js';
import { PrivatePostgres, privateServersAvailable } from './private-servers.js';
import {
  prepareTraffic,
  send,
  startTraffic,
  uniqueName,
  verifyAcknowledged,
  PASSWORD,
  type Reply,
} from './traffic.js';

/**
 * PostgreSQL stopped under traffic and started again while two instances serve: neither
 * exits, requests meanwhile get a prompt 503 with `Retry-After`, /readyz says not ready while
 * /healthz stays up, everything works again within 5 s of the database's return without a
 * restart, and nothing acknowledged is lost. FAULT_PG_DOWN_MS shortens the 15 s outage.
 */
const DOWN_MS = Number(process.env.FAULT_PG_DOWN_MS || 15_000);
const AUTH = '/api/v1/auth';
const UNAVAILABLE = '数据库不可用';

let pg: PrivatePostgres | undefined;
const servers: RunningServer[] = [];
const usable = privateServersAvailable().postgres;

beforeAll(async () => {
  if (usable) pg = await PrivatePostgres.create();
});
afterAll(async () => {
  for (const s of servers) await s.stop(5_000);
  await pg?.dispose();
});

/** A registration, `me` and sign-in in a row: the database serves reads and writes. */
async function works(base: string): Promise<boolean> {
  const username = uniqueName('probe');
  const reg = await send(base, 'POST', `${AUTH}/register`, {
    username,
    password: PASSWORD,
    email: `${username}@example.com`,
  });
  if (reg.status !== 200) return false;
  const me = await send(
    base,
    'GET',
    `${AUTH}/me`,
    undefined,
    reg.body.access_token,
  );
  const login = await send(base, 'POST', `${AUTH}/login`, {
    username,
    password: PASSWORD,
  });
  return me.status === 200 && login.status === 200;
}

describe.skipIf(!usable)('PostgreSQL stopped and started under traffic', () => {
  it('answers 503 with Retry-After meanwhile and recovers by itself', {
    timeout: DOWN_MS + 90_000,
  }, async () => {
    const env = { DATABASE_URL: `${pg!.url}?pool_max=4`, LOG_LEVEL: 'warn' };
    for (let i = 0; i < 2; i++) servers.push(await startServer(env));
    const bases = servers.map((s) => s.url);
    const setup = await prepareTraffic(env, bases[0]!);
    const traffic = startTraffic({ bases, setup, timeoutMs: 15_000 });
    await waitFor('acknowledged registrations', 30_000, () => {
      return traffic.accounts.length >= 12;
    });

    const downAt = Date.now();
    await pg!.stop();
    const probes: Array<{ path: string; reply: Reply }> = [];
    const probing = (async () => {
      while (Date.now() - downAt < DOWN_MS - 500) {
        for (const base of bases)
          for (const path of ['/healthz', '/readyz'])
            probes.push({ path, reply: await send(base, 'GET', path) });
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await waitFor(
      'the outage to last its time',
      DOWN_MS + 1_000,
      () => Date.now() - downAt >= DOWN_MS,
      100,
    );
    await probing;
    await pg!.start();
    const upAt = Date.now();

    const recovered = await Promise.all(
      bases.map((b) =>
        waitFor('a working instance', 5_000, () => works(b), 100),
      ),
    );
    expect(recovered).toEqual([true, true]);
    const recoveredMs = Date.now() - upAt;
    // Traffic well after the return, all of which must succeed.
    await waitFor(
      'traffic answered more than 5 s after the return',
      30_000,
      () =>
        traffic.records.filter((r) => r.reply.at >= upAt + 5_000).length >= 30,
      100,
    );
    await traffic.stop();

    for (const s of servers)
      expect(s.child.exitCode ?? s.child.signalCode, s.output()).toBeNull();

    const during = traffic.records.filter(
      (r) => r.reply.at >= downAt + 200 && r.reply.at + r.reply.ms <= upAt,
    );
    expect(during.length).toBeGreaterThan(10);
    const unavailable = during.filter((r) => r.reply.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const r of during) {
      expect([0, 500]).not.toContain(r.reply.status);
      expect(r.reply.ms, `${r.op} took ${r.reply.ms} ms`).toBeLessThan(10_000);
    }
    for (const r of unavailable) {
      expect(r.reply.body.msg).toBe(UNAVAILABLE);
      expect(Number(r.reply.retryAfter)).toBeGreaterThanOrEqual(1);
    }

    const healthz = probes.filter((p) => p.path === '/healthz');
    expect(healthz.every((p) => p.reply.status === 200)).toBe(true);
    const readyz = probes.filter((p) => p.path === '/readyz');
    expect(readyz.some((p) => p.reply.status === 503)).toBe(true);
    for (const p of readyz) expect(p.reply.ms).toBeLessThan(10_000);

    const after = traffic.records.filter((r) => r.reply.at >= upAt + 5_000);
    const failed = after.filter((r) => r.reply.status !== 200);
    expect(failed.map((r) => `${r.op} ${r.reply.status}`)).toEqual([]);
    expect(recoveredMs).toBeLessThan(5_000);

    expect(await verifyAcknowledged(bases[1]!, traffic, setup)).toEqual([]);
    for (const base of bases)
      expect((await send(base, 'GET', '/readyz')).status).toBe(200);
  });
});
