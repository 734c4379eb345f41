import { setTimeout as pause } from 'node:timers/promises';
import { runCli } from '../helpers/server.js';
import { send, type Reply } from './request.js';

export { send, type Reply } from './request.js';

/**
 * Steady mixed traffic against one or more running instances: registrations, sign-ins,
 * `me`, token refreshes, authorization code exchanges and bans. Every answer is recorded with
 * its time; what was answered 200 is kept, for the checks that it survived the fault.
 */
const AUTH = '/api/v1/auth';
export const PASSWORD = 'fault suite password';
const REDIRECT = 'https://rp.example.com/cb';

export interface Account {
  username: string;
  token: string;
}

export interface TrafficSetup {
  adminToken: string;
  clientId: string;
  clientSecret: string;
}

let seq = 0;
export const uniqueName = (prefix: string) =>
  `${prefix}_${process.pid % 100_000}_${++seq}`;

/** An administrator made with the CLI (on `env`'s database) and a confidential app of theirs. */
export async function prepareTraffic(
  env: Record<string, string>,
  base: string,
): Promise<TrafficSetup> {
  const admin = uniqueName('adm');
  await runCli(env, [
    'user',
    'create',
    '--username',
    admin,
    '--password',
    PASSWORD,
    '--email',
    `${admin}@example.com`,
    '--roles',
    'player,admin',
  ]);
  const login = await send(base, 'POST', `${AUTH}/login`, {
    username: admin,
    password: PASSWORD,
  });
  if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
  const adminToken = login.body.access_token as string;
  const app = await send(
    base,
    'POST',
    `${AUTH}/apps`,
    { display_name: 'Fault RP', redirect_uris: [REDIRECT] },
    adminToken,
  );
  if (app.status !== 200) throw new Error(`app: ${app.status}`);
  return {
    adminToken,
    clientId: app.body.data.client_id,
    clientSecret: app.body.data.client_secret,
  };
}

export type Op = 'register' | 'login' | 'me' | 'refresh' | 'exchange' | 'ban';
const CYCLE: Op[] = ['register', 'me', 'login', 'refresh', 'exchange', 'ban'];

export interface TrafficRecord {
  op: Op;
  base: string;
  reply: Reply;
}

export interface Traffic {
  records: TrafficRecord[];
  /** Accounts answered 200 at registration (the banned ones are apart). */
  accounts: Account[];
  /** Usernames whose ban was answered 200. */
  banned: string[];
  /** Authorization codes whose exchange was answered 200: single use, never honoured again. */
  exchanged: string[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<void>;
}

export interface TrafficOptions {
  bases: string[];
  setup: TrafficSetup;
  workers?: number;
  /** Pause between one worker's requests, so a failing instance is not flooded. */
  paceMs?: number;
  timeoutMs?: number;
  /** The operations to cycle through (all of them by default). */
  ops?: Op[];
}

export function startTraffic(opts: TrafficOptions): Traffic {
  const { setup } = opts;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const cycle = opts.ops ?? CYCLE;
  const traffic: Traffic = {
    records: [],
    accounts: [],
    banned: [],
    exchanged: [],
    stop: async () => undefined,
  };
  let stopped = false;
  const call = async (
    op: Op,
    base: string,
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ) => {
    const reply = await send(base, method, path, body, token, timeoutMs);
    traffic.records.push({ op, base, reply });
    return reply;
  };
  const pick = (i: number) =>
    traffic.accounts[i % Math.max(1, traffic.accounts.length)];

  const step = async (op: Op, base: string, i: number) => {
    const account = pick(i);
    if (op === 'register' || !account) {
      const username = uniqueName('u');
      const r = await call('register', base, 'POST', `${AUTH}/register`, {
        username,
        password: PASSWORD,
        email: `${username}@example.com`,
      });
      if (r.status === 200)
        traffic.accounts.push({ username, token: r.body.access_token });
      return;
    }
    if (op === 'me') {
      await call('me', base, 'GET', `${AUTH}/me`, undefined, account.token);
    } else if (op === 'login') {
      const r = await call('login', base, 'POST', `${AUTH}/login`, {
        username: account.username,
        password: PASSWORD,
      });
      if (r.status === 200) account.token = r.body.access_token;
    } else if (op === 'refresh') {
      const r = await call(
        'refresh',
        base,
        'POST',
        `${AUTH}/refresh`,
        undefined,
        account.token,
      );
      if (r.status === 200) account.token = r.body.access_token;
    } else if (op === 'exchange') {
      const a = await call(
        'exchange',
        base,
        'POST',
        `${AUTH}/authorize`,
        { client_id: setup.clientId, redirect_uri: REDIRECT },
        account.token,
      );
      if (a.status !== 200) return;
      const code = a.body.data.code as string;
      const r = await call('exchange', base, 'POST', `${AUTH}/exchange`, {
        client_id: setup.clientId,
        client_secret: setup.clientSecret,
        code,
      });
      if (r.status === 200) traffic.exchanged.push(code);
    } else if (op === 'ban') {
      // A victim of its own, never in the pool, so no other worker is signing it in meanwhile.
      const username = uniqueName('ban');
      const v = await call('register', base, 'POST', `${AUTH}/register`, {
        username,
        password: PASSWORD,
        email: `${username}@example.com`,
      });
      if (v.status !== 200) return;
      const r = await call(
        'ban',
        base,
        'POST',
        `${AUTH}/admin/users/ban`,
        { username, banned: true },
        setup.adminToken,
      );
      if (r.status === 200) traffic.banned.push(username);
    }
  };

  const worker = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const base = opts.bases[(w + i) % opts.bases.length]!;
      await step(cycle[(w + i) % cycle.length]!, base, w * 7919 + i);
      await pause(opts.paceMs ?? 20);
    }
  };
  const running = Promise.all(
    Array.from({ length: opts.workers ?? 4 }, (_, w) => worker(w)),
  );
  traffic.stop = async () => {
    stopped = true;
    await running;
  };
  return traffic;
}

/** Checks after a fault: every acknowledged change is there, and no used code works again. */
export async function verifyAcknowledged(
  base: string,
  traffic: Traffic,
  setup: TrafficSetup,
): Promise<string[]> {
  const problems: string[] = [];
  for (const a of traffic.accounts) {
    const r = await send(base, 'POST', `${AUTH}/login`, {
      username: a.username,
      password: PASSWORD,
    });
    if (r.status !== 200) problems.push(`account ${a.username}: ${r.status}`);
  }
  for (const username of traffic.banned) {
    const r = await send(base, 'POST', `${AUTH}/login`, {
      username,
      password: PASSWORD,
    });
    if (r.status !== 403) problems.push(`ban of ${username}: ${r.status}`);
  }
  for (const code of traffic.exchanged) {
    const r = await send(base, 'POST', `${AUTH}/exchange`, {
      client_id: setup.clientId,
      client_secret: setup.clientSecret,
      code,
    });
    if (r.status === 200) problems.push(`code ${code} honoured twice`);
  }
  return problems;
}
