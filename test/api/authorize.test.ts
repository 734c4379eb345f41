import { describe, expect, it } from 'vitest';
import { failure } from '../helpers/app.js';
import { createApp, pkcePair } from '../helpers/oauth.js';

import { authorizeClients, CB } from './authorize-setup.js';

const env = authorizeClients();

const authorize = (payload: unknown, token = env.user.token) =>
  env.t.post('/api/v1/auth/authorize', payload, token);

describe('POST /authorize', () => {
  it('issues a code and composes the redirect_url', async () => {
    const res = await authorize({
      client_id: env.conf.client_id,
      redirect_uri: CB,
      state: 'a b&c=d/é',
      scope: 'email+profile email',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const d = res.json().data;
    expect(Object.keys(d).sort()).toEqual([
      'code',
      'expires_in',
      'redirect_url',
    ]);
    expect(d.code).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect(d.expires_in).toBe(120);
    expect(d.redirect_url).toBe(
      `${CB}?code=${d.code}&state=${encodeURIComponent('a b&c=d/é')}`,
    );
    const stored = await env.t.runtime.storage.codes.findByHash(
      (await import('../../src/platform/crypto/random.js')).timedSecretKey(
        d.code,
      ),
    );
    expect(stored).toMatchObject({
      clientId: env.conf.client_id,
      userId: env.user.uid,
      redirectUri: CB,
      scope: 'email profile',
      codeChallenge: null,
    });
    expect(stored!.expiresAt - stored!.createdAt).toBe(120_000);

    const q = (
      await authorize({
        client_id: env.conf.client_id,
        redirect_uri: 'https://good.example.com/cb2?app=1',
      })
    ).json().data;
    expect(q.redirect_url).toBe(
      `https://good.example.com/cb2?app=1&code=${q.code}`,
    );
  });

  it('codes are random and stored only hashed', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++)
      codes.add(
        (
          await authorize({ client_id: env.conf.client_id, redirect_uri: CB })
        ).json().data.code,
      );
    expect(codes.size).toBe(5);
    for (const c of codes)
      expect(await env.t.runtime.storage.codes.findByHash(c)).toBeUndefined();
  });

  it('refuses every callback that is not exactly registered', async () => {
    const bad = [
      `${CB}/`,
      'https://GOOD.example.com/cb',
      'https://good.example.com/CB',
      `${CB}?extra=1`,
      'https://good.example.com:8443/cb',
      'http://good.example.com/cb',
      'https://good.example.com.evil.com/cb',
      'https://good.example.com@evil.com/cb',
      `${CB}#frag`,
      'https://good.example.com:443/cb',
      'https://good.example.com/cb2',
      '',
    ];
    for (const uri of bad) {
      expect(
        failure(
          await authorize({ client_id: env.conf.client_id, redirect_uri: uri }),
        ),
      ).toEqual([400, { ok: false, msg: '回调地址不在白名单内' }]);
    }
  });

  it('scope: normalised, defaults to the app scopes, refused outside them', async () => {
    const { timedSecretKey } = await import(
      '../../src/platform/crypto/random.js'
    );
    const scopeOf = async (scope?: string) => {
      const code = (
        await authorize({
          client_id: env.conf.client_id,
          redirect_uri: CB,
          ...(scope === undefined ? {} : { scope }),
        })
      ).json().data.code;
      return (await env.t.runtime.storage.codes.findByHash(
        timedSecretKey(code),
      ))!.scope;
    };
    expect(await scopeOf()).toBe('profile email');
    expect(await scopeOf('profile')).toBe('profile');
    expect(await scopeOf('  email++profile ')).toBe('email profile');
    expect(
      failure(
        await authorize({
          client_id: env.conf.client_id,
          redirect_uri: CB,
          scope: 'profile admin',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '申请的权限范围无效' }]);
  });

  it('PKCE: public must send an S256 challenge', async () => {
    const { challenge } = pkcePair();
    const base = {
      client_id: env.pub.client_id,
      redirect_uri: 'http://localhost:5173/cb',
    };
    expect(failure(await authorize(base))).toEqual([
      400,
      { ok: false, msg: '公开客户端必须提供 code_challenge(PKCE)' },
    ]);
    expect(
      failure(await authorize({ ...base, code_challenge: challenge })),
    ).toEqual([400, { ok: false, msg: '仅支持 code_challenge_method=S256' }]);
    expect(
      failure(
        await authorize({
          ...base,
          code_challenge: challenge,
          code_challenge_method: 'plain',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '仅支持 code_challenge_method=S256' }]);
    expect(
      failure(
        await authorize({
          ...base,
          code_challenge: 'short',
          code_challenge_method: 'S256',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '参数错误：code_challenge' }]);
    expect(
      (
        await authorize({
          ...base,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
      ).statusCode,
    ).toBe(200);
    // A confidential client may use PKCE as well, S256 only.
    expect(
      failure(
        await authorize({
          client_id: env.conf.client_id,
          redirect_uri: CB,
          code_challenge: challenge,
          code_challenge_method: 'plain',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '仅支持 code_challenge_method=S256' }]);
    expect(
      (
        await authorize({
          client_id: env.conf.client_id,
          redirect_uri: CB,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('app checks come first: unknown 404, disabled 403; the built-in ids are not clients', async () => {
    expect(
      failure(await authorize({ client_id: 'no-such-app', redirect_uri: CB })),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(
      failure(
        await authorize({ client_id: 'account-center', redirect_uri: CB }),
      ),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(
      failure(await authorize({ client_id: 'game', redirect_uri: CB })),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    const off = await createApp(env.t, env.user);
    await env.t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id },
      env.user.token,
    );
    expect(
      failure(await authorize({ client_id: off.client_id, redirect_uri: CB })),
    ).toEqual([403, { ok: false, msg: '该应用已被停用' }]);
  });

  it('needs a first-party Bearer token', async () => {
    expect(
      failure(
        await authorize(
          { client_id: env.conf.client_id, redirect_uri: CB },
          '',
        ),
      ),
    ).toEqual([401, { ok: false, msg: '令牌无效或已过期' }]);
    const code = (
      await authorize({ client_id: env.conf.client_id, redirect_uri: CB })
    ).json().data.code;
    const third = (
      await env.t.post('/api/v1/auth/exchange', {
        client_id: env.conf.client_id,
        client_secret: env.conf.client_secret,
        code,
      })
    ).json().access_token;
    expect(
      failure(
        await authorize(
          { client_id: env.conf.client_id, redirect_uri: CB },
          third,
        ),
      ),
    ).toEqual([403, { ok: false, msg: '该令牌无权访问此接口' }]);
  });

  it('bad input is a 4xx with the field named', async () => {
    expect(failure(await authorize({ redirect_uri: CB }))).toEqual([
      400,
      { ok: false, msg: '参数错误：client_id' },
    ]);
    expect(failure(await authorize({ client_id: env.conf.client_id }))).toEqual(
      [400, { ok: false, msg: '参数错误：redirect_uri' }],
    );
    expect(
      failure(
        await authorize({
          client_id: env.conf.client_id,
          redirect_uri: CB,
          state: 5,
        }),
      ),
    ).toEqual([400, { ok: false, msg: '参数错误：state' }]);
    expect(
      failure(await authorize({ client_id: ['x'], redirect_uri: CB })),
    ).toEqual([400, { ok: false, msg: '参数错误：client_id' }]);
  });
});
