import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/platform/logging/log.js';
import {
  createTestApp,
  TEST_SECRET,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';
import { LogSink } from '../helpers/log.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await t.close();
});

const requestLines = () => t.log.entries().filter((l) => l.msg === 'request');

describe('request log and X-Request-Id', () => {
  it('logs one line per request with id, route, status, time and user id, and no token', async () => {
    const username = uniqueName('logged');
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'proxy-id-123',
      },
      payload: JSON.stringify({
        username,
        password: 'password123',
        email: `${username}@example.com`,
      }),
    });
    expect(reg.statusCode).toBe(200);
    expect(reg.headers['x-request-id']).toBe('proxy-id-123');
    const { access_token: token, user } = reg.json();

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me?code=query-secret-123',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    const id = me.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const logged = requestLines();
    expect(logged.find((l) => l.reqId === 'proxy-id-123')).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/api/v1/auth/register',
      status: 200,
      uid: null,
    });
    const meLine = logged.find((l) => l.reqId === id);
    expect(meLine).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/api/v1/auth/me',
      status: 200,
      uid: user.uid,
    });
    expect(typeof meLine!.ms).toBe('number');
    const text = t.log.text();
    expect(text).not.toContain(token);
    expect(text).not.toContain('query-secret-123');
    expect(text).not.toContain('password123');
  });

  it('logs failures and unknown routes too, and replaces an unsafe X-Request-Id', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { 'x-request-id': 'evil\u0000"}{"level":60' },
    });
    expect(bad.statusCode).toBe(401);
    const id = bad.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines().find((l) => l.reqId === id)).toMatchObject({
      route: '/api/v1/auth/me',
      status: 401,
      uid: null,
    });

    const missing = await t.app.inject({
      method: 'GET',
      url: '/no/such/page',
      headers: { 'x-request-id': 'x'.repeat(200) },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).not.toBe('x'.repeat(200));
    expect(
      requestLines().find((l) => l.reqId === missing.headers['x-request-id']),
    ).toMatchObject({ route: '(no route)', status: 404 });
    const head = await t.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(head.statusCode).toBe(200);
    expect(
      requestLines().find((l) => l.reqId === head.headers['x-request-id']),
    ).toMatchObject({ method: 'HEAD', route: '/healthz', status: 200 });
    // Exactly one line per request, whichever way it went.
    for (const res of [bad, missing, head])
      expect(
        requestLines().filter((l) => l.reqId === res.headers['x-request-id']),
      ).toHaveLength(1);
    const ids = requestLines().map((l) => l.reqId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('LOG_FORMAT', () => {
  it('pretty writes readable lines, json (the default) writes JSON; anything else is refused', () => {
    const out = new LogSink();
    const pretty = createLogger('info', out.stream, 'pretty');
    pretty.info(
      { reqId: 'r-1', route: '/x', status: 200, password: 'pw-secret' },
      'request',
    );
    expect(out.text()).toMatch(/INFO.*request/);
    expect(out.text()).toContain('r-1');
    expect(out.text()).not.toContain('pw-secret');
    expect(() => JSON.parse(out.text())).toThrow();

    expect(
      loadConfig({ JWT_SECRET: TEST_SECRET, LOG_FORMAT: 'pretty' }).config
        .logFormat,
    ).toBe('pretty');
    expect(loadConfig({ JWT_SECRET: TEST_SECRET }).config.logFormat).toBe(
      'json',
    );
    expect(() =>
      loadConfig({ JWT_SECRET: TEST_SECRET, LOG_FORMAT: 'xml' }),
    ).toThrow(ConfigError);
  });
});
