import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index.js';
import {
  createTestApp,
  TEST_SECRET,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { authorizeCode, createApp } from '../helpers/oauth.js';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.register();
  other = await t.register();
});
afterAll(async () => {
  await t.close();
});

// docs/api.md §4: the seed view plus the client fields of docs/api.md §12.2.
const VIEW_KEYS = [
  'client_id',
  'cors_origins',
  'created_at',
  'display_name',
  'has_secret',
  'homepage',
  'redirect_uris',
  'scopes',
  'status',
  'updated_at',
  'client_type',
  'grant_types',
  'token_endpoint_auth_method',
  'post_logout_redirect_uris',
  'backchannel_logout_uri',
  'backchannel_logout_session_required',
  // Roles any one of which admits a person (docs/api.md §19.3).
  'required_roles',
].sort();
const post = (path: string, payload: unknown, token = owner.token) =>
  t.post(`/api/v1/auth/${path}`, payload, token);
const fail = async (
  res: Promise<{ statusCode: number; json(): { msg: string } }>,
) => {
  const r = await res;
  return [r.statusCode, r.json().msg];
};

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
    const stored = await t.runtime.storage.apps.findById('my-app');
    expect(stored?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(d.client_secret);

    const list = await t.get('/api/v1/auth/apps', owner.token);
    expect(list.statusCode).toBe(200);
    const apps = list.json().data.apps;
    const mine = apps.find(
      (a: { client_id: string }) => a.client_id === 'my-app',
    );
    expect(Object.keys(mine).sort()).toEqual(VIEW_KEYS);
    expect(list.body).not.toContain(d.client_secret);
    expect(
      (await t.get('/api/v1/auth/apps', other.token)).json().data.apps,
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
    await createApp(t, owner, { client_id: 'taken-id' });
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
        t.post('/api/v1/auth/apps', {
          display_name: 'X',
          redirect_uris: ['https://a.example.com/cb'],
        }),
      ),
    ).toEqual([401, '令牌无效或已过期']);
    expect((await t.get('/api/v1/auth/apps')).statusCode).toBe(401);
    const a = await createApp(t, owner);
    const code = await authorizeCode(t, owner, {
      client_id: a.client_id,
      redirect_uri: 'https://good.example.com/cb',
    });
    const thirdParty = (
      await t.post('/api/v1/auth/exchange', {
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
    expect((await t.get('/api/v1/auth/apps', thirdParty)).statusCode).toBe(403);
  });
});

describe('update, rotate_secret, disable', () => {
  it('updates whitelists and profile; only the owner or an admin', async () => {
    const a = await createApp(t, owner);
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
          other.token,
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
    const admin = await t.admin();
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
    const a = await createApp(t, owner);
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
    const code = await authorizeCode(t, owner, {
      client_id: a.client_id,
      redirect_uri: 'https://good.example.com/cb',
    });
    const old = await t.post('/api/v1/auth/exchange', {
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
        await t.post('/api/v1/auth/exchange', {
          client_id: a.client_id,
          client_secret: fresh,
          code,
        })
      ).statusCode,
    ).toBe(200);

    const pub = await createApp(t, owner, { client_type: 'public' });
    expect(
      await fail(post('apps/rotate_secret', { client_id: pub.client_id })),
    ).toEqual([400, '公开客户端没有密钥']);
    expect(
      await fail(
        post('apps/rotate_secret', { client_id: a.client_id }, other.token),
      ),
    ).toEqual([403, '无权操作该应用']);
    expect(
      await fail(post('apps/rotate_secret', { client_id: 'no-such-app' })),
    ).toEqual([404, '未知的应用']);
  });

  it('disable toggles or sets the status', async () => {
    const a = await createApp(t, owner);
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
      await fail(post('apps/disable', { client_id: a.client_id }, other.token)),
    ).toEqual([403, '无权操作该应用']);
    expect(
      await fail(
        post('apps/disable', { client_id: a.client_id, enabled: 'yes' }),
      ),
    ).toEqual([400, '参数错误：enabled']);
    // A status other than active (written by hand) is shown and treated as disabled.
    await t.runtime.storage.apps.update(
      a.client_id,
      { status: 'suspended' },
      Date.now(),
    );
    expect(
      (await t.get('/api/v1/auth/apps', owner.token))
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
    const a = await createApp(t, owner);
    const secret = (
      await post('apps/rotate_secret', { client_id: a.client_id })
    ).json().data.client_secret;
    await post('apps/update', { client_id: a.client_id, display_name: 'Y' });
    await post('apps/disable', { client_id: a.client_id });
    await post('apps/disable', { client_id: a.client_id });
    const { entries } = await t.runtime.storage.audit.list(
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
      expect(e.actor).toBe(owner.username);
      expect(e.ip).toBe('127.0.0.1');
    }
    const dump = JSON.stringify(entries);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(a.client_secret);
  });
});

describe('account-center app create', () => {
  it('prints the view and the secret as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-cli-'));
    const saved = { ...process.env };
    Object.assign(process.env, {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
      BASE_URL: 'http://127.0.0.1:3000',
    });
    const out: string[] = [];
    const spy = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk) => {
        out.push(String(chunk));
        return true;
      });
    const errs: string[] = [];
    const errSpy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk) => {
        errs.push(String(chunk));
        return true;
      });
    try {
      await main([
        'user',
        'create',
        '--username',
        'dev_one',
        '--password',
        'correct horse',
        '--email',
        'dev@example.com',
      ]);
      out.length = 0;
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'CLI App',
        '--redirect-uri',
        'https://cli.example.com/cb',
        '--client-id',
        'cli-app',
      ]);
      expect(errs.join('')).toBe('');
      const created = JSON.parse(out.join(''));
      expect(created).toMatchObject({
        client_id: 'cli-app',
        display_name: 'CLI App',
        client_type: 'confidential',
        redirect_uris: ['https://cli.example.com/cb'],
        has_secret: true,
      });
      expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      out.length = 0;
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'Native',
        '--redirect-uri',
        'com.example.app:/cb',
        '--public',
      ]);
      const pub = JSON.parse(out.join(''));
      expect(pub).toMatchObject({ client_type: 'public', has_secret: false });
      expect(pub.client_secret).toBeUndefined();
      await main([
        'app',
        'create',
        '--owner',
        'dev_one',
        '--name',
        'Dup',
        '--redirect-uri',
        'https://cli.example.com/cb',
        '--client-id',
        'account-center',
      ]);
      expect(process.exitCode).toBe(2);
    } finally {
      process.exitCode = 0;
      spy.mockRestore();
      errSpy.mockRestore();
      process.env = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
