import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/platform/logging/log.js';
import {
  createRuntime,
  type Runtime,
  type RuntimeOptions,
} from '../../src/main.js';
import { testDatabaseUrl } from './db.js';
import { LogSink } from './log.js';
import { SmtpSink } from './smtp.js';
import { waitFor } from './wait.js';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export interface TestUser {
  token: string;
  uid: number;
  username: string;
  password: string;
  email: string;
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  /** Receives the service's e-mails, unless `env` named an SMTP_URL of its own. */
  smtp: SmtpSink;
  /** What the service logged: nothing unless `env` sets LOG_LEVEL (the default is silent). */
  log: LogSink;
  /** POST JSON (or nothing) with an optional Bearer token. */
  post(
    url: string,
    payload?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  get(
    url: string,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Registers a fresh user and returns its first-party token. */
  register(
    overrides?: Partial<{ username: string; password: string; email: string }>,
  ): Promise<TestUser>;
  /** A fresh user holding role admin, with a token issued after the role change. */
  admin(): Promise<TestUser>;
  /**
   * Waits until the mail outbox has sent everything queued so far: after it, what the sink
   * holds is final (a message not there was never queued).
   */
  mailSent(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A failed answer as `[status, body]`, to compare with `[400, refusal('…')]`. */
export const failure = (res: { statusCode: number; json(): unknown }) => [
  res.statusCode,
  res.json(),
];
/** The failure body `{ ok: false, msg }`. */
export const refusal = (msg: string) => ({ ok: false, msg });

let counter = 0;
export const uniqueName = (prefix = 'user') =>
  `${prefix}_${process.pid}_${++counter}_${Math.floor(Math.random() * 1e6)}`;

/**
 * The whole service in-process on a fresh database (SQLite in memory, or the PostgreSQL
 * of TEST_DATABASE_URL in a schema of its own), with a real SMTP sink for codes and its log
 * kept in memory. `env` goes to the configuration on top of these: a DATABASE_URL there is
 * used as it is (and left in place on close), an SMTP_URL replaces the sink (an empty one
 * makes the service write e-mails to its log, as it does without SMTP).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: RuntimeOptions = {},
): Promise<TestApp> {
  const smtp = new SmtpSink();
  const ownSmtp = env.SMTP_URL === undefined;
  const smtpUrl = ownSmtp ? await smtp.start() : '';
  const { url, dispose } =
    env.DATABASE_URL === undefined
      ? await testDatabaseUrl()
      : { url: env.DATABASE_URL, dispose: async () => undefined };
  const { config } = loadConfig({
    JWT_SECRET: TEST_SECRET,
    DATABASE_URL: url,
    SMTP_URL: smtpUrl,
    IP_RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const log = new LogSink();
  const runtime = await createRuntime(
    config,
    createLogger(config.logLevel, log.stream, config.logFormat),
    opts,
  );
  const app = runtime.app;
  await app.ready();

  const json = (payload: unknown) =>
    payload === undefined
      ? {}
      : {
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        };
  const auth = (token?: string) =>
    token ? { authorization: `Bearer ${token}` } : {};
  const t: TestApp = {
    app,
    runtime,
    smtp,
    log,
    post(u, payload, token, headers = {}) {
      const j = json(payload);
      return app.inject({
        method: 'POST',
        url: u,
        ...j,
        headers: { ...(j.headers ?? {}), ...auth(token), ...headers },
      });
    },
    get(u, token, headers = {}) {
      return app.inject({
        method: 'GET',
        url: u,
        headers: { ...auth(token), ...headers },
      });
    },
    async register(o = {}) {
      const username = o.username ?? uniqueName();
      const password = o.password ?? 'correct horse battery';
      const email = o.email ?? `${username}@example.com`;
      const res = await t.post('/api/v1/auth/register', {
        username,
        password,
        email,
      });
      if (res.statusCode !== 200)
        throw new Error(`register failed: ${res.statusCode} ${res.body}`);
      const b = res.json();
      return {
        token: b.access_token,
        uid: b.user.uid,
        username,
        password,
        email,
      };
    },
    async admin() {
      const u = await t.register({ username: uniqueName('admin') });
      await runtime.services.admin.setRoles(
        u.username,
        ['player', 'admin'],
        'test',
      );
      const res = await t.post('/api/v1/auth/login', {
        username: u.username,
        password: u.password,
      });
      return { ...u, token: res.json().access_token };
    },
    async mailSent(timeoutMs = 5000) {
      await waitFor(
        'the mail outbox to be sent',
        timeoutMs,
        async () => (await runtime.storage.mail.pending()) === 0,
        20,
      );
    },
    async close() {
      await runtime.close();
      if (ownSmtp) await smtp.stop();
      await dispose();
    },
  };
  return t;
}
