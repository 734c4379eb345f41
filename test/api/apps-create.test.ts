import { describe, expect, it } from 'vitest';
import {
  APP_VIEW_KEYS as VIEW_KEYS,
  authorizeCode,
  createApp,
} from '../helpers/oauth.js';
import { appsApp, fail } from './apps-setup.js';

const { env, post } = appsApp();

describe('POST /apps', () => {
  it('creates a confidential app: secret shown once, stored only as a hash', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await post('apps', {
      display_name: ' My App ',
      homepage: 'https://good.example.com',
      redirect_uris: ['https://good.example.com/cb'],
      cors_origins: ['https://web.example.com'],
      scopes: ['profile', 'email'],
      client_id: 'my-app',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const d = res.json().data;
    expect(Object.keys(d).sort()).toEqual(
      [...VIEW_KEYS, 'client_secret'].sort(),
    );
    expect(d).toMatchObject({
      client_id: 'my-app',
      display_name: 'My App',
      homepage: 'https://good.example.com',
      scopes: ['profile', 'email'],
      redirect_uris: ['https://good.example.com/cb'],
      cors_origins: ['https://web.example.com'],
      client_type: 'confidential',
      status: 'active',
      has_secret: true,
    });
    expect(d.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(d.created_at).toBeGreaterThanOrEqual(before);
    expect(d.created_at).toBeLessThan(before + 100);
    expect(d.updated_at).toBe(d.created_at);
    const stored = await env.t.runtime.storage.apps.findById('my-app');
    expect(stored?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(d.client_secret);

    const list = await env.t.get('/api/v1/auth/apps', env.owner.token);
    expect(list.statusCode).toBe(200);
    const apps = list.json().data.apps;
    const mine = apps.find(
      (a: { client_id: string }) => a.client_id === 'my-app',
    );
    expect(Object.keys(mine).sort()).toEqual(VIEW_KEYS);
    expect(list.body).not.toContain(d.client_secret);
    expect(
      (await env.t.get('/api/v1/auth/apps', env.other.token)).json().data.apps,
    ).toEqual([]);
  });

  it('creates a public app without secret and generates a client_id', async () => {
    const d = (
      await post('apps', {
        display_name: 'SPA',
        redirect_uris: ['http://localhost:5173/cb', 'com.example.app:/cb'],
        client_type: 'public',
      })
    ).json().data;
    expect(d.client_secret).toBeUndefined();
    expect(d).toMatchObject({
      client_type: 'public',
      has_secret: false,
      homepage: '',
      scopes: [],
      cors_origins: [],
      status: 'active',
    });
    expect(d.client_id).toMatch(/^[a-z0-9][a-z0-9_-]{2,63}$/);
  });

  it('validates fields with the msgs of docs/api.md §4', async () => {
    const base = {
      display_name: 'X',
      redirect_uris: ['https://good.example.com/cb'],
    };
    expect(await fail(post('apps', { ...base, client_id: 'Bad Id' }))).toEqual([
      400,
      '参数错误：client_id',
    ]);
    expect(
      await fail(post('apps', { ...base, client_type: 'native' })),
    ).toEqual([400, '参数错误：client_type']);
    expect(
      await fail(post('apps', { redirect_uris: base.redirect_uris })),
    ).toEqual([400, '参数错误：display_name']);
    expect(await fail(post('apps', { display_name: 'X' }))).toEqual([
      400,
      '参数错误：redirect_uris',
    ]);
    expect(await fail(post('apps', { ...base, redirect_uris: [] }))).toEqual([
      400,
      '参数错误：redirect_uris',
    ]);
    expect(
      await fail(
        post('apps', {
          ...base,
          redirect_uris: Array.from(
            { length: 21 },
            (_, i) => `https://a.example.com/${i}`,
          ),
        }),
      ),
    ).toEqual([400, '参数错误：redirect_uris']);
    expect(
      await fail(
        post('apps', { ...base, redirect_uris: 'https://good.example.com/cb' }),
      ),
    ).toEqual([400, '参数错误：redirect_uris']);
    for (const uri of [
      'http://good.example.com/cb',
      'https://good.example.com/cb#x',
      '/relative',
      'javascript:alert(1)',
      'https://u:p@good.example.com/cb',
    ]) {
      expect(
        await fail(post('apps', { ...base, redirect_uris: [uri] })),
      ).toEqual([400, '回调地址格式不正确']);
    }
    for (const origin of [
      'null',
      'https://web.example.com/',
      'https://web.example.com/path',
      '*',
    ]) {
      expect(
        await fail(post('apps', { ...base, cors_origins: [origin] })),
      ).toEqual([400, '来源格式不正确']);
    }
    expect(
      await fail(post('apps', { ...base, scopes: ['has space'] })),
    ).toEqual([400, '参数错误：scopes']);
    expect(
      await fail(post('apps', { ...base, homepage: 'javascript:alert(1)' })),
    ).toEqual([400, '参数错误：homepage']);
  });

  it('refuses taken and built-in client_ids with 409', async () => {
    await createApp(env.t, env.owner, { client_id: 'taken-id' });
    expect(
      await fail(
        post('apps', {
          display_name: 'X',
          redirect_uris: ['https://a.example.com/cb'],
          client_id: 'taken-id',
        }),
      ),
    ).toEqual([409, '应用标识已存在']);
    for (const id of ['account-center', 'game']) {
      expect(
        await fail(
          post('apps', {
            display_name: 'X',
            redirect_uris: ['https://a.example.com/cb'],
            client_id: id,
          }),
        ),
      ).toEqual([409, '应用标识已存在']);
    }
  });

  it('needs a first-party Bearer token', async () => {
    expect(
      await fail(
        env.t.post('/api/v1/auth/apps', {
          display_name: 'X',
          redirect_uris: ['https://a.example.com/cb'],
        }),
      ),
    ).toEqual([401, '令牌无效或已过期']);
    expect((await env.t.get('/api/v1/auth/apps')).statusCode).toBe(401);
    const a = await createApp(env.t, env.owner);
    const code = await authorizeCode(env.t, env.owner, {
      client_id: a.client_id,
      redirect_uri: 'https://good.example.com/cb',
    });
    const thirdParty = (
      await env.t.post('/api/v1/auth/exchange', {
        client_id: a.client_id,
        client_secret: a.client_secret,
        code,
      })
    ).json().access_token;
    expect(
      await fail(
        post(
          'apps',
          { display_name: 'X', redirect_uris: ['https://a.example.com/cb'] },
          thirdParty,
        ),
      ),
    ).toEqual([403, '该令牌无权访问此接口']);
    expect((await env.t.get('/api/v1/auth/apps', thirdParty)).statusCode).toBe(
      403,
    );
  });
});
