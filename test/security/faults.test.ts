import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { injectWithin, postRoutes } from '../fuzz/harness.js';

/**
 * When the database fails, every request still gets a prompt, clean answer — a 500
 * `{ok:false,msg}` that reveals nothing, or a 4xx where input was refused before any storage
 * work — and the service recovers by itself once the database is back.
 */
let t: TestApp;
let user: TestUser;
let broken = new Set<string>();
const FAULT = 'injected storage fault 7f3a';

beforeAll(async () => {
  t = await createTestApp();
  user = await t.register();
  const storage = t.runtime.storage as unknown as Record<string, unknown>;
  for (const repoName of [
    'users',
    'revocations',
    'apps',
    'codes',
    'devices',
    'emailCodes',
    'audit',
  ]) {
    const repo = storage[repoName] as Record<string, unknown>;
    const proto = Object.getPrototypeOf(repo) as Record<string, unknown>;
    for (const name of new Set([
      ...Object.getOwnPropertyNames(proto),
      ...Object.keys(repo),
    ])) {
      const original = repo[name];
      if (name === 'constructor' || typeof original !== 'function') continue;
      repo[name] = (...args: unknown[]) => {
        if (broken.has(repoName)) return Promise.reject(new Error(FAULT));
        return (original as (...a: unknown[]) => unknown).apply(repo, args);
      };
    }
  }
  const ping = t.runtime.storage.ping.bind(t.runtime.storage);
  (t.runtime.storage as { ping: () => Promise<boolean> }).ping = async () =>
    broken.size ? false : ping();
});
afterAll(async () => {
  broken = new Set();
  await t?.close();
});

const VALID: Record<string, unknown> = {
  username: 'someone_x',
  password: 'correct horse battery',
  new_password: 'correct horse battery',
  email: 'someone@example.com',
  display_name: 'Fault',
  purpose: 'login',
  code: '123456',
  client_id: 'account-center',
  redirect_uri: 'https://example.com/cb',
  redirect_uris: ['https://example.com/cb'],
  client_secret: 'x',
  user_code: '123456',
  device_code: 'x',
  roles: ['player'],
  banned: false,
};

describe('database faults', () => {
  it('every route answers promptly with a clean envelope while the database is down, then recovers', {
    timeout: 60_000,
  }, async () => {
    const admin = await t.admin();
    broken = new Set([
      'users',
      'revocations',
      'apps',
      'codes',
      'devices',
      'emailCodes',
      'audit',
    ]);
    const requests: Array<{
      method: 'GET' | 'POST';
      url: string;
      payload?: string;
    }> = [
      ...postRoutes(t.app).map((r) => ({
        method: 'POST' as const,
        url: r.path,
        payload: JSON.stringify(
          Object.fromEntries(
            r.fields.filter((f) => f in VALID).map((f) => [f, VALID[f]]),
          ),
        ),
      })),
      { method: 'GET', url: '/api/v1/auth/me' },
      { method: 'GET', url: '/api/v1/auth/apps' },
      { method: 'GET', url: '/api/v1/auth/admin/users' },
      { method: 'GET', url: '/api/v1/auth/admin/audit' },
    ];
    let serverErrors = 0;
    for (const r of requests) {
      for (const token of [user.token, admin.token, undefined]) {
        const res = await injectWithin(t.app, 10_000, {
          method: r.method,
          url: r.url,
          payload: r.payload,
          headers: {
            ...(r.payload ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        });
        expect(res.body).not.toContain(FAULT);
        expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
        if (!r.url.startsWith('/api/')) {
          // The standard endpoints answer in their own formats (RFC 6749 errors, HTML pages).
          if (res.statusCode >= 500) serverErrors++;
          continue;
        }
        const b = res.json();
        if (res.statusCode >= 500) {
          serverErrors++;
          expect([res.statusCode, b]).toEqual([
            500,
            { ok: false, msg: '服务器内部错误' },
          ]);
        } else if (res.statusCode >= 400) {
          expect(b.ok).toBe(false);
        }
      }
    }
    expect(serverErrors).toBeGreaterThan(10);
    const ready = await t.get('/readyz');
    expect([ready.statusCode, ready.json()]).toEqual([
      503,
      { ok: false, msg: '数据库不可用' },
    ]);
    expect((await t.get('/healthz')).statusCode).toBe(200);

    broken = new Set();
    expect((await t.get('/readyz')).statusCode).toBe(200);
    expect(
      (
        await t.post('/api/v1/auth/login', {
          username: user.username,
          password: user.password,
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.get('/api/v1/auth/me', user.token)).statusCode).toBe(200);
  });

  it('a failing audit log never fails the request it records', async () => {
    broken = new Set(['audit']);
    try {
      const res = await t.post('/api/v1/auth/login', {
        username: user.username,
        password: user.password,
      });
      expect(res.statusCode).toBe(200);
      expect(
        (
          await t.post('/api/v1/auth/login', {
            username: user.username,
            password: 'wrong password!',
          })
        ).statusCode,
      ).toBe(401);
    } finally {
      broken = new Set();
    }
  });
});
