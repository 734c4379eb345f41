import { setTimeout as pause } from 'node:timers/promises';
import { runCli } from '../helpers/server.js';
import { verifyFamilies, WorkerFamilies } from './oidc-families.js';
import {
  RegistrationExtras,
  verifyRegistrationExtras,
} from './registration-extras.js';
import { send, sendWith, type Reply, type SendOptions } from './request.js';

export { send, type Reply } from './request.js';

/**
 * Steady mixed traffic against one or more running instances: registrations (with an invite
 * code and a CAPTCHA when the center asks for them), sign-ins, `me`, token refreshes,
 * authorization code exchanges, bans and, when asked for, OpenID Connect refresh token
 * rotations. Every answer is recorded with its time; what was answered 200 is kept, for the
 * checks that it survived the fault and that nothing single use works twice.
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
  redirectUri: string;
  /** REGISTRATION=invite: each registration brings a code the administrator made. */
  invites: boolean;
  /** CAPTCHA=altcha: each registration brings a solved challenge. */
  captcha: boolean;
}

let seq = 0;
export const uniqueName = (prefix: string) =>
  `${prefix}_${process.pid % 100_000}_${++seq}`;

/**
 * An administrator made with the CLI (on `env`'s database) and a confidential app of theirs;
 * `env` is the instances' own, whose REGISTRATION and CAPTCHA the registrations follow.
 */
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
    redirectUri: REDIRECT,
    invites: env.REGISTRATION === 'invite',
    captcha: env.CAPTCHA === 'altcha',
  };
}

const CYCLE = [
  'register',
  'me',
  'login',
  'refresh',
  'exchange',
  'ban',
] as const;
/** The default cycle and OpenID Connect refresh token rotations. */
export const WITH_OIDC = [...CYCLE, 'oidc'] as const;
export type Op = (typeof WITH_OIDC)[number];

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
  /** Invite codes and CAPTCHA solutions the registrations used. */
  extras: RegistrationExtras;
  /** OpenID Connect refresh token families started and rotated. */
  families: WorkerFamilies;
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
  /** The operations to cycle through (all but `oidc` by default). */
  ops?: readonly Op[];
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
    extras: new RegistrationExtras(setup),
    families: new WorkerFamilies(setup),
    stop: async () => undefined,
  };
  let stopped = false;
  /** Sends one request recorded under `op`. */
  const as =
    (op: Op) =>
    async (
      base: string,
      method: string,
      path: string,
      body?: unknown,
      opts: SendOptions = {},
    ) => {
      const reply = await sendWith(base, method, path, body, {
        timeoutMs,
        ...opts,
      });
      traffic.records.push({ op, base, reply });
      return reply;
    };
  const call = (
    op: Op,
    base: string,
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ) => as(op)(base, method, path, body, { token });
  const pick = (i: number) =>
    traffic.accounts[i % Math.max(1, traffic.accounts.length)];
  const register = (base: string, username: string) =>
    traffic.extras.register(as('register'), base, username, PASSWORD);

  const step = async (op: Op, base: string, i: number, w: number) => {
    const account = pick(i);
    if (op === 'register' || !account) {
      const username = uniqueName('u');
      const r = await register(base, username);
      if (r?.status === 200)
        traffic.accounts.push({ username, token: r.body.access_token });
      return;
    }
    if (op === 'me') {
      await call('me', base, 'GET', `${AUTH}/me`, undefined, account.token);
    } else if (op === 'oidc') {
      await traffic.families.step(as('oidc'), base, w, account.token);
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
      const v = await register(base, username);
      if (v?.status !== 200) return;
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
      await step(cycle[(w + i) % cycle.length]!, base, w * 7919 + i, w);
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

/**
 * Checks after a fault: every acknowledged change is there, and nothing single use that was
 * answered 200 (code, refresh token, invite use, CAPTCHA solution) works again.
 */
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
  const probe = () => uniqueName('probe');
  return [
    ...problems,
    ...(await verifyFamilies(base, setup, traffic.families.all)),
    ...(await verifyRegistrationExtras(base, traffic.extras, setup, probe)),
  ];
}
