import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';

let t: TestApp;
let user: TestUser;
let withOrigins: CreatedApp;
let fromCallbacks: CreatedApp;
beforeAll(async () => {
  t = await createTestApp();
  user = await t.register();
  withOrigins = await createApp(t, user, {
    redirect_uris: ['https://good.example.com/cb'],
    cors_origins: ['https://web.example.com'],
  });
  fromCallbacks = await createApp(t, user, {
    redirect_uris: ['https://spa.example.com:8443/cb', 'com.example.app:/cb'],
  });
});
afterAll(async () => {
  await t.close();
});

const preflight = (url: string, origin?: string) =>
  t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      ...(origin === undefined ? {} : { origin }),
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
const refused = (r: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}) => {
  expect(r.statusCode).toBe(403);
  expect(r.json()).toEqual({ ok: false, msg: '来源不在白名单内' });
  expect(r.headers['access-control-allow-origin']).toBeUndefined();
};

describe('preflight', () => {
  it('allows a registered origin on every CORS endpoint', async () => {
    for (const p of [
      'client_info',
      'authorize',
      'exchange',
      'me',
      'refresh',
      'logout',
    ]) {
      const r = await preflight(`/api/v1/auth/${p}`, 'https://web.example.com');
      expect(r.statusCode).toBe(204);
      expect(r.headers['access-control-allow-origin']).toBe(
        'https://web.example.com',
      );
      expect(r.headers.vary).toContain('Origin');
      expect(r.headers['access-control-allow-methods']).toBe(
        'GET, POST, OPTIONS',
      );
      expect(r.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type',
      );
      expect(r.headers['access-control-max-age']).toBe('60');
      expect(r.body).toBe('');
    }
  });

  it('uses the callback origins when cors_origins is empty, cors_origins otherwise', async () => {
    expect(
      (await preflight('/api/v1/auth/me', 'https://spa.example.com:8443'))
        .statusCode,
    ).toBe(204);
    refused(await preflight('/api/v1/auth/me', 'https://good.example.com'));
  });

  it('?client_id= narrows the whitelist to that app', async () => {
    expect(
      (
        await preflight(
          `/api/v1/auth/exchange?client_id=${withOrigins.client_id}`,
          'https://web.example.com',
        )
      ).statusCode,
    ).toBe(204);
    refused(
      await preflight(
        `/api/v1/auth/exchange?client_id=${fromCallbacks.client_id}`,
        'https://web.example.com',
      ),
    );
    refused(
      await preflight(
        '/api/v1/auth/exchange?client_id=no-such-app',
        'https://web.example.com',
      ),
    );
  });

  it('refuses unregistered, look-alike and null origins, and closed endpoints', async () => {
    for (const origin of [
      'https://evil.example.com',
      'https://web.example.com.evil.com',
      'http://web.example.com',
      'https://web.example.com:444',
      'https://WEB.example.com',
      'null',
      '',
    ]) {
      refused(await preflight('/api/v1/auth/me', origin));
    }
    for (const p of [
      '/api/v1/auth/login',
      '/api/v1/auth/register',
      '/api/v1/auth/apps',
      '/api/v1/auth/game_token',
      '/nope',
    ]) {
      refused(await preflight(p, 'https://web.example.com'));
    }
  });

  it('follows app changes made on this instance at once', async () => {
    const a = await createApp(t, user, {
      redirect_uris: ['https://late.example.com/cb'],
    });
    expect(
      (await preflight('/api/v1/auth/me', 'https://late.example.com'))
        .statusCode,
    ).toBe(204);
    await t.post(
      '/api/v1/auth/apps/update',
      { client_id: a.client_id, cors_origins: ['https://later.example.com'] },
      user.token,
    );
    refused(await preflight('/api/v1/auth/me', 'https://late.example.com'));
    expect(
      (
        await preflight(
          `/api/v1/auth/me?client_id=${a.client_id}`,
          'https://later.example.com',
        )
      ).statusCode,
    ).toBe(204);
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: a.client_id },
      user.token,
    );
    refused(await preflight('/api/v1/auth/me', 'https://later.example.com'));
    refused(
      await preflight(
        `/api/v1/auth/me?client_id=${a.client_id}`,
        'https://later.example.com',
      ),
    );
  });
});

describe('actual requests', () => {
  it('echo a registered origin with Vary: Origin, errors included', async () => {
    const ok = await t.get('/api/v1/auth/me', user.token, {
      origin: 'https://web.example.com',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(
      'https://web.example.com',
    );
    expect(ok.headers.vary).toContain('Origin');
    const err = await t.get('/api/v1/auth/me', 'bad', {
      origin: 'https://web.example.com',
    });
    expect(err.statusCode).toBe(401);
    expect(err.headers['access-control-allow-origin']).toBe(
      'https://web.example.com',
    );
    expect(err.headers.vary).toContain('Origin');
    const info = await t.post(
      '/api/v1/auth/client_info',
      { client_id: withOrigins.client_id, redirect_uri: 'x' },
      undefined,
      { origin: 'https://web.example.com' },
    );
    expect(info.headers['access-control-allow-origin']).toBe(
      'https://web.example.com',
    );
    const bad = await t.post(
      '/api/v1/auth/exchange',
      { client_id: withOrigins.client_id },
      undefined,
      { origin: 'https://web.example.com' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe(
      'https://web.example.com',
    );
    // A method the endpoint does not have: the 404 is echoed like any other error.
    const wrongMethod = await t.get(
      `/api/v1/auth/client_info?client_id=${withOrigins.client_id}`,
      undefined,
      { origin: 'https://web.example.com' },
    );
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.headers['access-control-allow-origin']).toBe(
      'https://web.example.com',
    );
    expect(wrongMethod.headers.vary).toContain('Origin');
  });

  it('the body client_id names the app whose origins apply', async () => {
    const r = await t.post(
      '/api/v1/auth/client_info',
      { client_id: fromCallbacks.client_id, redirect_uri: 'x' },
      undefined,
      { origin: 'https://web.example.com' },
    );
    expect(r.statusCode).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an unregistered origin is processed without Allow-Origin', async () => {
    const r = await t.get('/api/v1/auth/me', user.token, {
      origin: 'https://evil.example.com',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(r.headers.vary).toContain('Origin');
    const n = await t.get('/api/v1/auth/me', user.token, { origin: 'null' });
    expect(n.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('closed endpoints never send Allow-Origin', async () => {
    const r = await t.post(
      '/api/v1/auth/login',
      { username: 'nobody', password: 'whatever-long' },
      undefined,
      { origin: 'https://web.example.com' },
    );
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const apps = await t.get('/api/v1/auth/apps', user.token, {
      origin: 'https://web.example.com',
    });
    expect(apps.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('cache', () => {
  it('preflight may serve a cached whitelist, body checks never do', async () => {
    const c = await createTestApp({ CORS_CACHE_TTL: '60' });
    try {
      const u = await c.register();
      const a = await createApp(c, u, {
        redirect_uris: ['https://cached.example.com/cb'],
      });
      const pre = () =>
        c.app.inject({
          method: 'OPTIONS',
          url: '/api/v1/auth/me',
          headers: {
            origin: 'https://cached.example.com',
            'access-control-request-method': 'GET',
          },
        });
      expect((await pre()).statusCode).toBe(204);
      // A write that bypasses the service (as another instance would) is not seen until the TTL…
      await c.runtime.storage.apps.update(
        a.client_id,
        { status: 'disabled' },
        Date.now(),
      );
      expect((await pre()).statusCode).toBe(204);
      // …but body validation reads the database at once.
      const info = await c.post('/api/v1/auth/client_info', {
        client_id: a.client_id,
        redirect_uri: 'https://cached.example.com/cb',
      });
      expect([info.statusCode, info.json().msg]).toEqual([
        403,
        '该应用已被停用',
      ]);
      // A change announced on the bus drops the cache.
      c.runtime.bus.publish({ type: 'app', clientId: a.client_id });
      expect((await pre()).statusCode).toBe(403);
    } finally {
      await c.close();
    }
  });
});
