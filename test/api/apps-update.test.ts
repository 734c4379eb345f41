import { describe, expect, it } from 'vitest';
import {
  APP_VIEW_KEYS as VIEW_KEYS,
  authorizeCode,
  createApp,
} from '../helpers/oauth.js';
import { appsApp, fail } from './apps-setup.js';

const { env, post } = appsApp();

describe('update, rotate_secret, disable', () => {
  it('updates whitelists and profile; only the owner or an admin', async () => {
    const a = await createApp(env.t, env.owner);
    const res = await post('apps/update', {
      client_id: a.client_id,
      display_name: 'Renamed',
      redirect_uris: ['https://new.example.com/cb'],
      scopes: ['x'],
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(VIEW_KEYS);
    expect(res.json().data).toMatchObject({
      display_name: 'Renamed',
      redirect_uris: ['https://new.example.com/cb'],
      scopes: ['x'],
      has_secret: true,
    });
    expect(
      await fail(
        post(
          'apps/update',
          { client_id: a.client_id, display_name: 'Mine' },
          env.other.token,
        ),
      ),
    ).toEqual([403, '无权操作该应用']);
    expect(
      await fail(
        post('apps/update', { client_id: 'no-such-app', display_name: 'Mine' }),
      ),
    ).toEqual([404, '未知的应用']);
    expect(
      await fail(
        post('apps/update', {
          client_id: a.client_id,
          redirect_uris: ['http://evil.example.com/cb'],
        }),
      ),
    ).toEqual([400, '回调地址格式不正确']);
    expect(
      await fail(
        post('apps/update', { client_id: a.client_id, cors_origins: ['null'] }),
      ),
    ).toEqual([400, '来源格式不正确']);
    const admin = await env.t.admin();
    expect(
      (
        await post(
          'apps/update',
          { client_id: a.client_id, homepage: 'https://admin.example.com' },
          admin.token,
        )
      ).json().data.homepage,
    ).toBe('https://admin.example.com');
  });

  it('rotates the secret: the old one fails at once; public clients have none', async () => {
    const a = await createApp(env.t, env.owner);
    const res = await post('apps/rotate_secret', { client_id: a.client_id });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.json().data).sort()).toEqual([
      'client_id',
      'client_secret',
    ]);
    const fresh = res.json().data.client_secret as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(fresh).not.toBe(a.client_secret);
    const code = await authorizeCode(env.t, env.owner, {
      client_id: a.client_id,
      redirect_uri: 'https://good.example.com/cb',
    });
    const old = await env.t.post('/api/v1/auth/exchange', {
      client_id: a.client_id,
      client_secret: a.client_secret,
      code,
    });
    expect([old.statusCode, old.json().msg]).toEqual([
      401,
      'client_secret 不正确',
    ]);
    expect(
      (
        await env.t.post('/api/v1/auth/exchange', {
          client_id: a.client_id,
          client_secret: fresh,
          code,
        })
      ).statusCode,
    ).toBe(200);

    const pub = await createApp(env.t, env.owner, { client_type: 'public' });
    expect(
      await fail(post('apps/rotate_secret', { client_id: pub.client_id })),
    ).toEqual([400, '公开客户端没有密钥']);
    expect(
      await fail(
        post('apps/rotate_secret', { client_id: a.client_id }, env.other.token),
      ),
    ).toEqual([403, '无权操作该应用']);
    expect(
      await fail(post('apps/rotate_secret', { client_id: 'no-such-app' })),
    ).toEqual([404, '未知的应用']);
  });

  it('disable toggles or sets the status', async () => {
    const a = await createApp(env.t, env.owner);
    const toggle = async (payload: Record<string, unknown>) =>
      (
        await post('apps/disable', { client_id: a.client_id, ...payload })
      ).json().data;
    expect(await toggle({})).toEqual({
      client_id: a.client_id,
      status: 'disabled',
    });
    expect(await toggle({})).toEqual({
      client_id: a.client_id,
      status: 'active',
    });
    expect(await toggle({ enabled: false })).toEqual({
      client_id: a.client_id,
      status: 'disabled',
    });
    expect(await toggle({ enabled: false })).toEqual({
      client_id: a.client_id,
      status: 'disabled',
    });
    expect(await toggle({ enabled: true })).toEqual({
      client_id: a.client_id,
      status: 'active',
    });
    expect(
      await fail(
        post('apps/disable', { client_id: a.client_id }, env.other.token),
      ),
    ).toEqual([403, '无权操作该应用']);
    expect(
      await fail(
        post('apps/disable', { client_id: a.client_id, enabled: 'yes' }),
      ),
    ).toEqual([400, '参数错误：enabled']);
    // A status other than active (written by hand) is shown and treated as disabled.
    await env.t.runtime.storage.apps.update(
      a.client_id,
      { status: 'suspended' },
      Date.now(),
    );
    expect(
      (await env.t.get('/api/v1/auth/apps', env.owner.token))
        .json()
        .data.apps.find(
          (x: { client_id: string }) => x.client_id === a.client_id,
        ).status,
    ).toBe('disabled');
    expect(await toggle({})).toEqual({
      client_id: a.client_id,
      status: 'active',
    });
  });

  it('audits every write with actor, ip and target, never the secret', async () => {
    const a = await createApp(env.t, env.owner);
    const secret = (
      await post('apps/rotate_secret', { client_id: a.client_id })
    ).json().data.client_secret;
    await post('apps/update', { client_id: a.client_id, display_name: 'Y' });
    await post('apps/disable', { client_id: a.client_id });
    await post('apps/disable', { client_id: a.client_id });
    const { entries } = await env.t.runtime.storage.audit.list(
      { target: a.client_id },
      0,
      50,
    );
    expect(entries.map((e) => e.action).sort()).toEqual([
      'app.create',
      'app.disable',
      'app.enable',
      'app.rotate_secret',
      'app.update',
    ]);
    for (const e of entries) {
      expect(e.actor).toBe(env.owner.username);
      expect(e.ip).toBe('127.0.0.1');
    }
    const dump = JSON.stringify(entries);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(a.client_secret);
  });
});
