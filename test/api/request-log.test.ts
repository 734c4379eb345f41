import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/platform/logging/log.js';
import { createRuntime, type Runtime } from '../../src/main.js';
import { TEST_SECRET, uniqueName } from '../helpers/app.js';
import { testDatabaseUrl } from '../helpers/db.js';

const lines: string[] = [];
const sink = new Writable({ write(chunk, _enc, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
let runtime: Runtime;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const db = await testDatabaseUrl();
  dispose = db.dispose;
  const { config } = loadConfig({ JWT_SECRET: TEST_SECRET, DATABASE_URL: db.url, IP_RATE_LIMITS: 'off', SMTP_URL: 'smtp://127.0.0.1:1' });
  runtime = await createRuntime(config, createLogger('info', sink));
  await runtime.app.ready();
});
afterAll(async () => {
  await runtime.close();
  await dispose();
});

const requestLines = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');

describe('request log and X-Request-Id', () => {
  it('logs one line per request with id, route, status, time and user id, and no token', async () => {
    const username = uniqueName('logged');
    const reg = await runtime.app.inject({
      method: 'POST', url: '/api/v1/auth/register', headers: { 'content-type': 'application/json', 'x-request-id': 'proxy-id-123' },
      payload: JSON.stringify({ username, password: 'password123', email: `${username}@example.com` }),
    });
    expect(reg.statusCode).toBe(200);
    expect(reg.headers['x-request-id']).toBe('proxy-id-123');
    const { access_token: token, user } = reg.json();

    const me = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/me?code=query-secret-123', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    const id = me.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const logged = requestLines();
    expect(logged.find((l) => l.reqId === 'proxy-id-123')).toMatchObject({
      level: 30, method: 'POST', route: '/api/v1/auth/register', status: 200, uid: null,
    });
    const meLine = logged.find((l) => l.reqId === id);
    expect(meLine).toMatchObject({ level: 30, method: 'GET', route: '/api/v1/auth/me', status: 200, uid: user.uid });
    expect(typeof meLine!.ms).toBe('number');
    const text = lines.join('\n');
    expect(text).not.toContain(token);
    expect(text).not.toContain('query-secret-123');
    expect(text).not.toContain('password123');
  });

  it('logs failures and unknown routes too, and replaces an unsafe X-Request-Id', async () => {
    const bad = await runtime.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { 'x-request-id': 'evil\u0000"}{"level":60' } });
    expect(bad.statusCode).toBe(401);
    const id = bad.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines().find((l) => l.reqId === id)).toMatchObject({ route: '/api/v1/auth/me', status: 401, uid: null });

    const missing = await runtime.app.inject({ method: 'GET', url: '/no/such/page', headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).not.toBe('x'.repeat(200));
    expect(requestLines().find((l) => l.reqId === missing.headers['x-request-id'])).toMatchObject({ route: '(no route)', status: 404 });
    const head = await runtime.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(head.statusCode).toBe(200);
    expect(requestLines().find((l) => l.reqId === head.headers['x-request-id'])).toMatchObject({ method: 'HEAD', route: '/healthz', status: 200 });
    // Exactly one line per request, whichever way it went.
    for (const res of [bad, missing, head]) expect(requestLines().filter((l) => l.reqId === res.headers['x-request-id'])).toHaveLength(1);
    const ids = requestLines().map((l) => l.reqId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('LOG_FORMAT', () => {
  it('pretty writes readable lines, json (the default) writes JSON; anything else is refused', () => {
    const out: string[] = [];
    const pretty = createLogger('info', new Writable({ write(c, _e, d) { out.push(String(c)); d(); } }), 'pretty');
    pretty.info({ reqId: 'r-1', route: '/x', status: 200, password: 'pw-secret' }, 'request');
    expect(out.join('')).toMatch(/INFO.*request/);
    expect(out.join('')).toContain('r-1');
    expect(out.join('')).not.toContain('pw-secret');
    expect(() => JSON.parse(out.join(''))).toThrow();

    expect(loadConfig({ JWT_SECRET: TEST_SECRET, LOG_FORMAT: 'pretty' }).config.logFormat).toBe('pretty');
    expect(loadConfig({ JWT_SECRET: TEST_SECRET }).config.logFormat).toBe('json');
    expect(() => loadConfig({ JWT_SECRET: TEST_SECRET, LOG_FORMAT: 'xml' })).toThrow(ConfigError);
  });
});
