import { describe, expect, it } from 'vitest';
import { failure } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';

import { authorizeClients, CB } from './authorize-setup.js';

const env = authorizeClients();

const clientInfo = (payload: unknown) =>
  env.t.post('/api/v1/auth/client_info', payload);
describe('POST /client_info', () => {
  it('describes the app without secrets or the whitelist', async () => {
    const res = await clientInfo({
      client_id: env.conf.client_id,
      redirect_uri: CB,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      data: {
        client_id: env.conf.client_id,
        display_name: 'Demo App',
        homepage: 'https://good.example.com',
        scopes: ['profile', 'email'],
        redirect_ok: true,
        client_type: 'confidential',
        pkce_required: false,
      },
    });
    const p = (
      await clientInfo({
        client_id: env.pub.client_id,
        redirect_uri: 'com.example.app:/cb',
      })
    ).json().data;
    expect(p).toMatchObject({
      redirect_ok: true,
      client_type: 'public',
      pkce_required: true,
    });
  });

  it('a mismatched callback is redirect_ok:false, not an error', async () => {
    for (const uri of [
      `${CB}/`,
      'https://GOOD.example.com/cb',
      `${CB}?x=1`,
      'https://good.example.com.evil.com/cb',
      'https://good.example.com@evil.com/cb',
    ]) {
      const res = await clientInfo({
        client_id: env.conf.client_id,
        redirect_uri: uri,
      });
      expect([res.statusCode, res.json().data.redirect_ok]).toEqual([
        200,
        false,
      ]);
    }
  });

  it('unknown 404, disabled 403, missing fields 400', async () => {
    expect(
      failure(await clientInfo({ client_id: 'no-such-app', redirect_uri: CB })),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(
      failure(
        await clientInfo({ client_id: 'account-center', redirect_uri: CB }),
      ),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(failure(await clientInfo({ redirect_uri: CB }))).toEqual([
      400,
      { ok: false, msg: '参数错误：client_id' },
    ]);
    expect(
      failure(await clientInfo({ client_id: env.conf.client_id })),
    ).toEqual([400, { ok: false, msg: '参数错误：redirect_uri' }]);
    const off = await createApp(env.t, env.user);
    await env.t.post(
      '/api/v1/auth/apps/disable',
      { client_id: off.client_id, enabled: false },
      env.user.token,
    );
    expect(
      failure(await clientInfo({ client_id: off.client_id, redirect_uri: CB })),
    ).toEqual([403, { ok: false, msg: '该应用已被停用' }]);
  });
});
