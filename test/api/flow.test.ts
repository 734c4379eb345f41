import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';
import { fetchJson } from '../helpers/net.js';
import { pkcePair } from '../helpers/oauth.js';

// Real HTTP on an ephemeral port: the same path a developer's back end and browser take.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({
    LIMIT_EXCHANGE_PAIR: '10000/300',
    LIMIT_EXCHANGE_CLIENT: '10000/300',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

const call = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
) => fetchJson(base, method, path, body, token, headers);

async function signUp(): Promise<string> {
  const username = uniqueName('dev');
  const r = await call('POST', '/api/v1/auth/register', {
    username,
    password: 'correct horse battery',
    email: `${username}@example.com`,
  });
  expect(r.status).toBe(200);
  return r.body.access_token;
}

describe('authorization-code flow over HTTP', () => {
  it('confidential client: create app → client_info → authorize → exchange → me', async () => {
    const session = await signUp();
    const created = await call(
      'POST',
      '/api/v1/auth/apps',
      {
        display_name: 'Web Shop',
        redirect_uris: ['https://shop.example.com/callback'],
        scopes: ['profile'],
      },
      session,
    );
    expect(created.status).toBe(200);
    const { client_id, client_secret } = created.body.data;

    const info = await call('POST', '/api/v1/auth/client_info', {
      client_id,
      redirect_uri: 'https://shop.example.com/callback',
    });
    expect(info.body.data).toMatchObject({
      client_id,
      redirect_ok: true,
      pkce_required: false,
    });

    const auth = await call(
      'POST',
      '/api/v1/auth/authorize',
      {
        client_id,
        redirect_uri: 'https://shop.example.com/callback',
        state: 'xyz',
        scope: 'profile',
      },
      session,
    );
    expect(auth.status).toBe(200);
    expect(auth.headers.get('cache-control')).toBe('no-store');
    const redirect = new URL(auth.body.data.redirect_url);
    expect(redirect.origin + redirect.pathname).toBe(
      'https://shop.example.com/callback',
    );
    expect(redirect.searchParams.get('state')).toBe('xyz');
    const code = redirect.searchParams.get('code')!;

    const ex = await call('POST', '/api/v1/auth/exchange', {
      client_id,
      client_secret,
      code,
    });
    expect(ex.status).toBe(200);
    expect(ex.headers.get('cache-control')).toBe('no-store');
    expect(ex.body).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'profile',
    });

    const me = await call(
      'GET',
      '/api/v1/auth/me',
      undefined,
      ex.body.access_token,
    );
    expect(me.status).toBe(200);
    expect(me.body.data.app).toBe(client_id);
  });

  it('public client (SPA) with PKCE and CORS: preflight, authorize, exchange, me', async () => {
    const session = await signUp();
    const created = await call(
      'POST',
      '/api/v1/auth/apps',
      {
        display_name: 'SPA',
        client_type: 'public',
        redirect_uris: ['http://localhost:5173/callback'],
      },
      session,
    );
    const { client_id } = created.body.data;
    expect(created.body.data.client_secret).toBeUndefined();
    const origin = 'http://localhost:5173';

    const pre = await call(
      'OPTIONS',
      `/api/v1/auth/exchange?client_id=${client_id}`,
      undefined,
      undefined,
      { origin, 'access-control-request-method': 'POST' },
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);

    const { verifier, challenge } = pkcePair();
    const auth = await call(
      'POST',
      '/api/v1/auth/authorize',
      {
        client_id,
        redirect_uri: 'http://localhost:5173/callback',
        state: 's1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      session,
    );
    expect(auth.status).toBe(200);
    const code = new URL(auth.body.data.redirect_url).searchParams.get('code')!;

    const ex = await call(
      'POST',
      '/api/v1/auth/exchange',
      { client_id, code, code_verifier: verifier },
      undefined,
      { origin },
    );
    expect(ex.status).toBe(200);
    expect(ex.headers.get('access-control-allow-origin')).toBe(origin);
    expect(ex.headers.get('vary')).toContain('Origin');

    const me = await call(
      'GET',
      '/api/v1/auth/me',
      undefined,
      ex.body.access_token,
      { origin },
    );
    expect(me.status).toBe(200);
    expect(me.body.data.app).toBe(client_id);
    expect(me.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('20 simultaneous exchanges of one code over HTTP: exactly one 200', async () => {
    const session = await signUp();
    const { client_id, client_secret } = (
      await call(
        'POST',
        '/api/v1/auth/apps',
        {
          display_name: 'Race',
          redirect_uris: ['https://race.example.com/cb'],
        },
        session,
      )
    ).body.data;
    const { code } = (
      await call(
        'POST',
        '/api/v1/auth/authorize',
        { client_id, redirect_uri: 'https://race.example.com/cb' },
        session,
      )
    ).body.data;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/api/v1/auth/exchange', {
          client_id,
          client_secret,
          code,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect([r.status, r.body.msg]).toEqual([400, '授权码已被使用']);
  });
});
