import { afterAll, beforeAll, expect } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { fetchForm } from './helpers/net.js';
import { authorizeRedirect, consentOverHttp } from './helpers/oidc-client.js';
import { call, startServer, type RunningServer } from './helpers/server.js';

/**
 * What the multi-instance files share: two real server processes on one PostgreSQL schema.
 * TEST_PG_URL is set by vitest.config.ts when PostgreSQL is reachable (without it these tests
 * are skipped; in CI the run fails).
 */
export const PG = process.env.TEST_PG_URL;
const AUTH = '/api/v1/auth';
export const PASSWORD = 'correct horse battery';

type Schema = Awaited<ReturnType<typeof freshPostgresSchema>>;

export interface InstancePair {
  /** The settings both instances run with, for the CLI too. */
  env: Record<string, string>;
  A: RunningServer;
  B: RunningServer;
}

/**
 * Two instances on a fresh schema, with `settings` besides the database, shared by the tests of
 * the describe block that calls this and stopped after them.
 */
export function instancePair(
  settings: (db: Schema) => Record<string, string> = () => ({}),
): InstancePair {
  const pair = {} as InstancePair;
  let db: Schema | undefined;
  beforeAll(async () => {
    db = await freshPostgresSchema(PG!);
    pair.env = { DATABASE_URL: `${db.url}&pool_max=4`, ...settings(db) };
    [pair.A, pair.B] = await Promise.all([
      startServer(pair.env),
      startServer(pair.env),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pair.A?.stop(), pair.B?.stop()]);
    await db?.dispose();
  });
  return pair;
}

let seq = 0;
/** A name of this run only: the schema is fresh, but shared counters (Redis) outlive it. */
export const runName = (prefix: string) =>
  `${prefix}_${process.pid}_${++seq}_${Math.floor(Math.random() * 1e6)}`;

/** A new account on `base`, named from `prefix`. */
export async function register(
  base: string,
  prefix = 'mi',
): Promise<{ username: string; token: string }> {
  const username = runName(prefix);
  const res = await call(base, 'POST', `${AUTH}/register`, {
    username,
    password: PASSWORD,
    email: `${username}@example.com`,
  });
  expect(res.status).toBe(200);
  return { username, token: res.body.access_token };
}

/** GET /me on `base` with `token`. */
export const me = (base: string, token: string) =>
  call(base, 'GET', `${AUTH}/me`, undefined, token);

/**
 * A new account on `base` registers a client named `app` and signs in to it with `scope`
 * through `base`'s authorization endpoint and consent; the tokens come from `base` too.
 */
export async function signInToNewClient(
  base: string,
  opts: { prefix: string; app: string; redirectUri: string; scope: string },
): Promise<{
  client: [string, string];
  tokens: Record<string, string>;
  username: string;
}> {
  const { username, token } = await register(base, opts.prefix);
  const app = await call(
    base,
    'POST',
    `${AUTH}/apps`,
    { display_name: opts.app, redirect_uris: [opts.redirectUri] },
    token,
  );
  const client: [string, string] = [
    app.body.data.client_id,
    app.body.data.client_secret,
  ];
  const asked = await authorizeRedirect(base, token, {
    response_type: 'code',
    client_id: client[0],
    redirect_uri: opts.redirectUri,
    scope: opts.scope,
    state: 's',
  });
  expect(asked.pathname).toBe('/authorize');
  const code = (await consentOverHttp(base, token, asked)).searchParams.get(
    'code',
  )!;
  const res = await fetchForm(
    base,
    '/oauth/token',
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: opts.redirectUri,
    },
    client,
  );
  expect(res.status).toBe(200);
  return { client, tokens: res.body as Record<string, string>, username };
}
