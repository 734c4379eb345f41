import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await t.get('/healthz');
    expect([health.statusCode, health.json()]).toEqual([
      200,
      { ok: true, data: { status: 'ok' } },
    ]);
    const ready = await t.get('/readyz');
    expect([ready.statusCode, ready.json()]).toEqual([
      200,
      { ok: true, data: { status: 'ready' } },
    ]);
  });

  it('reports 503 at /readyz when the database is gone', async () => {
    const broken = await createTestApp();
    try {
      await broken.runtime.storage.close();
      const ready = await broken.get('/readyz');
      expect([ready.statusCode, ready.json()]).toEqual([
        503,
        { ok: false, msg: '数据库不可用' },
      ]);
      expect((await broken.get('/healthz')).statusCode).toBe(200);
      // A database fault is a bare 500: no stack, no SQL, no driver text.
      const login = await broken.post('/api/v1/auth/login', {
        username: 'someone',
        password: 'password1',
      });
      expect([login.statusCode, login.json()]).toEqual([
        500,
        { ok: false, msg: '服务器内部错误' },
      ]);
      const register = await broken.post('/api/v1/auth/register', {
        username: 'someone',
        password: 'password1',
        email: 'someone@example.com',
      });
      expect([register.statusCode, register.json()]).toEqual([
        500,
        { ok: false, msg: '服务器内部错误' },
      ]);
    } finally {
      // The storage is closed already; closing the rest must still work.
      await broken.close().catch(() => undefined);
    }
  });
});

describe('metrics', () => {
  it('exposes request and sign-in counters in Prometheus text', async () => {
    const u = await t.register();
    await t.post('/api/v1/auth/login', {
      username: u.username,
      password: u.password,
    });
    await t.post('/api/v1/auth/login', {
      username: u.username,
      password: 'wrong password',
    });
    await t.get('/api/v1/auth/me', u.token);
    await t.get('/no/such/route/12345');
    const res = await t.get('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toMatch(
      /http_requests_total\{[^}]*route="\/api\/v1\/auth\/me"[^}]*status="200"[^}]*\} 1/,
    );
    expect(text).toMatch(
      /http_requests_total\{[^}]*route="\/api\/v1\/auth\/login"[^}]*status="401"[^}]*\} 1/,
    );
    expect(text).toMatch(
      /login_attempts_total\{method="password",result="success"\} 1/,
    );
    expect(text).toMatch(
      /login_attempts_total\{method="password",result="failure"\} 1/,
    );
    expect(text).toContain('http_request_duration_seconds_bucket');
    // Raw URLs never become labels.
    expect(text).not.toContain('12345');
  });
});

describe('docs', () => {
  it('serves the UI and an OpenAPI document of the API', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const page =
      ui.statusCode === 302
        ? await t.app.inject({
            method: 'GET',
            url: ui.headers.location!.startsWith('/')
              ? ui.headers.location!
              : `/docs/${ui.headers.location}`,
          })
        : ui;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body.toLowerCase()).toContain('swagger');
    const doc = await t.get('/docs/json');
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/v1/auth/login',
      '/api/v1/auth/register',
      '/api/v1/auth/me',
      '/api/v1/auth/refresh',
      '/api/v1/auth/logout',
      '/api/v1/auth/send_code',
      '/api/v1/auth/admin/users',
    ]) {
      expect(Object.keys(spec.paths), path).toContain(path);
    }
    expect(spec.paths['/api/v1/auth/login'].post.requestBody).toBeDefined();
  });
});

describe('docs of the OpenID Connect endpoints', () => {
  it('lists every standard endpoint the discovery document names, with a summary, without schemas that would validate', async () => {
    const spec = (await t.get('/docs/json')).json();
    const discovery = (await t.get('/.well-known/openid-configuration')).json();
    const { issuer } = discovery;
    const advertised = Object.entries(discovery)
      .filter(
        ([key, value]) =>
          (key.endsWith('_endpoint') || key === 'jwks_uri') &&
          typeof value === 'string',
      )
      .map(([, url]) => (url as string).slice(issuer.length));
    expect(advertised).toEqual(
      expect.arrayContaining([
        '/oauth/authorize',
        '/oauth/token',
        '/oauth/userinfo',
        '/oauth/jwks',
        '/oauth/revoke',
        '/oauth/introspect',
        '/oauth/device_authorization',
        '/oauth/end_session',
      ]),
    );
    const expected: Array<[string, string]> = [
      ['/.well-known/openid-configuration', 'get'],
      ['/.well-known/oauth-authorization-server', 'get'],
      ['/oauth/authorize', 'get'],
      ['/oauth/authorize', 'post'],
      ['/oauth/authorize/resume', 'get'],
      ['/oauth/token', 'post'],
      ['/oauth/userinfo', 'get'],
      ['/oauth/userinfo', 'post'],
      ['/oauth/jwks', 'get'],
      ['/oauth/revoke', 'post'],
      ['/oauth/introspect', 'post'],
      ['/oauth/device_authorization', 'post'],
      ['/oauth/end_session', 'get'],
      ['/oauth/end_session', 'post'],
    ];
    for (const path of advertised)
      expect(
        expected.map(([p]) => p),
        path,
      ).toContain(path);
    for (const [path, method] of expected) {
      const op = spec.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.summary, `${method} ${path}`).toMatch(/\S/);
      expect(op.tags).toEqual(['openid connect']);
      // Documentation only: the endpoints read their form bodies themselves.
      expect(op.requestBody, `${method} ${path}`).toBeUndefined();
      expect(op.parameters ?? [], `${method} ${path}`).toEqual([]);
    }
    // Unchanged behaviour: a JSON body is still the RFC error, not a schema failure.
    const json = await t.post('/oauth/token', {
      grant_type: 'client_credentials',
    });
    expect([json.statusCode, json.json().error]).toEqual([
      400,
      'invalid_request',
    ]);
  });
});
