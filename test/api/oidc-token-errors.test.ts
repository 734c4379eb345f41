import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { decodeProtectedHeader } from 'jose';
import type { TestApp, TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';
import { CB, startTokenApp, tokenCodeFlow } from './oidc-token-setup.js';

let t: TestApp;
let dev: TestUser;
let person: TestUser;
let as: oauth.AuthorizationServer;
let basic: CreatedApp;
let post: CreatedApp;
let pub: CreatedApp;

beforeAll(async () => {
  ({ t, dev, person, as, basic, post, pub } = await startTokenApp());
});
afterAll(async () => {
  await t.close();
});

const codeFlow = tokenCodeFlow(() => ({ t, person, as }));

describe('client authentication', () => {
  const form = {
    grant_type: 'authorization_code',
    code: 'nope',
    redirect_uri: CB,
  };

  it('wrong secret with Basic: 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const res = await postForm(t, '/oauth/token', form, {
      basic: [basic.client_id, 'wrong'],
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client' });
    expect(typeof res.json().error_description).toBe('string');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('Basic credentials are form-url-decoded (RFC 6749 §2.3.1)', async () => {
    const encodedId = basic.client_id.replace(
      /[a-z]/,
      (c) => `%${c.charCodeAt(0).toString(16)}`,
    );
    const header = `Basic ${Buffer.from(`${encodedId}:${encodeURIComponent(basic.client_secret!)}`).toString('base64')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: header,
      },
    });
    expect(res.json().error).toBe('invalid_grant');
  });

  it('each client only with its registered method; unknown, disabled and built-in ids are not clients', async () => {
    const viaPost = await postForm(t, '/oauth/token', {
      ...form,
      client_id: basic.client_id,
      client_secret: basic.client_secret!,
    });
    expect([
      viaPost.statusCode,
      viaPost.json().error,
      viaPost.headers['www-authenticate'],
    ]).toEqual([401, 'invalid_client', undefined]);
    const viaBasic = await postForm(t, '/oauth/token', form, {
      basic: [post.client_id, post.client_secret!],
    });
    expect([viaBasic.statusCode, viaBasic.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
    const noAuth = await postForm(t, '/oauth/token', {
      ...form,
      client_id: basic.client_id,
    });
    expect(noAuth.json().error).toBe('invalid_client');
    const pubSecret = await postForm(t, '/oauth/token', {
      ...form,
      client_id: pub.client_id,
      client_secret: 'x',
    });
    expect(pubSecret.json().error).toBe('invalid_client');
    for (const id of ['no-such-client', 'account-center', 'game']) {
      expect(
        (await postForm(t, '/oauth/token', { ...form, client_id: id })).json()
          .error,
      ).toBe('invalid_client');
    }
    const off = await createApp(t, dev, { redirect_uris: [CB] });
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id, enabled: false },
      dev.token,
    );
    const disabled = await postForm(t, '/oauth/token', form, {
      basic: [off.client_id, off.client_secret!],
    });
    expect([disabled.statusCode, disabled.json().error]).toEqual([
      401,
      'invalid_client',
    ]);
  });
});

describe('token endpoint error rows', () => {
  // The counters and the audit read below need one completed sign-in with a code first.
  beforeAll(async () => {
    await codeFlow(basic, oauth.ClientSecretBasic(basic.client_secret!));
  });

  const cred = () => ({
    basic: [basic.client_id, basic.client_secret!] as [string, string],
  });

  it('JSON bodies and other types are invalid_request; every answer is no-store', async () => {
    const json = await t.post('/oauth/token', {
      grant_type: 'client_credentials',
    });
    expect([
      json.statusCode,
      json.json().error,
      json.headers['cache-control'],
    ]).toEqual([400, 'invalid_request', 'no-store']);
    const text = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: 'grant_type=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.statusCode, text.json().error]).toEqual([
      400,
      'invalid_request',
    ]);
    const none = await t.app.inject({ method: 'POST', url: '/oauth/token' });
    expect([none.statusCode, none.json().error]).toEqual([
      400,
      'invalid_request',
    ]);
  });

  it('missing or repeated parameters, unknown grants, grants the client lacks', async () => {
    expect((await postForm(t, '/oauth/token', {}, cred())).json().error).toBe(
      'invalid_request',
    );
    const repeated = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: 'grant_type=a&grant_type=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.json().error).toBe('invalid_request');
    expect(
      (
        await postForm(t, '/oauth/token', { grant_type: 'password' }, cred())
      ).json().error,
    ).toBe('unsupported_grant_type');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'client_credentials' },
          cred(),
        )
      ).json().error,
    ).toBe('unauthorized_client');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'authorization_code' },
          cred(),
        )
      ).json().error,
    ).toBe('invalid_request');
    expect(
      (
        await postForm(
          t,
          '/oauth/token',
          { grant_type: 'refresh_token', refresh_token: 'x' },
          cred(),
        )
      ).json().error,
    ).toBe('invalid_grant');
  });

  it('counts grants and failures in /metrics', async () => {
    const text = (await t.get('/metrics')).body;
    expect(text).toMatch(
      /oidc_token_requests_total\{grant_type="authorization_code",result="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /oidc_token_requests_total\{grant_type="[^"]+",result="invalid_client"\} [1-9]/,
    );
  });

  it('the seed API keeps its JSON-only rule', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: 'username=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('audits OIDC sign-ins like the seed does', async () => {
    const { entries } = await t.runtime.storage.audit.list(
      { action: 'login.success', actor: person.username },
      0,
      50,
    );
    expect(entries.some((e) => e.detail.method === 'oidc')).toBe(true);
  });

  it('keys and the decoded header carry the current kid', async () => {
    const { tokens } = await codeFlow(
      basic,
      oauth.ClientSecretBasic(basic.client_secret!),
      'openid',
    );
    const kids = (await t.get('/oauth/jwks'))
      .json()
      .keys.map((k: { kid: string }) => k.kid);
    expect(kids).toContain(decodeProtectedHeader(tokens.id_token!).kid);
    expect(kids).toContain(decodeProtectedHeader(tokens.access_token).kid);
  });
});
