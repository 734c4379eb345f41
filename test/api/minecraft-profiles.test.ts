import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { makePng } from '../helpers/png.js';

const P = '/api/v1/auth/account/minecraft/profiles';
const ADMIN = '/api/v1/auth/admin/minecraft/profiles';
const TAKEN = refusal('角色名已被占用');
const UNKNOWN = refusal('角色不存在');
const BAD_TEXTURE = refusal(
  '材质须为 PNG 图片，皮肤 64×32 或 64×64，披风 64×32 或 22×17',
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MINECRAFT: 'on', MINECRAFT_MAX_PROFILES: '2' });
});
afterAll(async () => {
  await t.close();
});

/** A profile name no other test uses: at most 16 characters. */
const profileName = () =>
  `p${uniqueName('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-12)}`;

async function createProfile(
  u: TestUser,
  name = profileName(),
): Promise<{ id: string; name: string }> {
  const res = await t.post(P, { name }, u.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const upload = (
  u: TestUser,
  id: string,
  type: string,
  file: Buffer,
  query = '',
) =>
  t.app.inject({
    method: 'POST',
    url: `${P}/${id}/textures/${type}${query}`,
    payload: file,
    headers: {
      authorization: `Bearer ${u.token}`,
      'content-type': 'image/png',
    },
  });

describe('Minecraft profiles on the account API', () => {
  it('creates, lists, renames and deletes; names are unique ignoring case and freed by a rename', async () => {
    const u = await t.register();
    const other = await t.register();
    const name = profileName();
    const created = await createProfile(u, name);
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await t.get(P, u.token)).json()).toEqual({
      ok: true,
      data: { profiles: [{ id: created.id, name }] },
    });

    expect(
      failure(await t.post(P, { name: name.toUpperCase() }, other.token)),
    ).toEqual([409, TAKEN]);
    const renamed = profileName();
    expect(
      (
        await t.post(`${P}/rename`, { id: created.id, name: renamed }, u.token)
      ).json(),
    ).toEqual({ ok: true, data: { id: created.id, name: renamed } });
    // The old name is free again.
    await createProfile(other, name);
    // Someone else's profile looks unknown.
    expect(
      failure(
        await t.post(
          `${P}/rename`,
          { id: created.id, name: profileName() },
          other.token,
        ),
      ),
    ).toEqual([404, UNKNOWN]);
    expect(
      failure(await t.post(`${P}/delete`, { id: created.id }, other.token)),
    ).toEqual([404, UNKNOWN]);

    expect(
      (await t.post(`${P}/delete`, { id: created.id }, u.token)).json(),
    ).toEqual({ ok: true, data: {} });
    expect((await t.get(P, u.token)).json().data.profiles).toEqual([]);
    const audit = await t.runtime.storage.audit.list(
      { actor: u.username },
      0,
      20,
    );
    expect(audit.entries.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'minecraft.profile.create',
        'minecraft.profile.rename',
        'minecraft.profile.delete',
      ]),
    );
  });

  it('refuses bad names and more profiles than MINECRAFT_MAX_PROFILES, counted atomically', async () => {
    const u = await t.register();
    for (const name of ['', 'has space', 'x'.repeat(17), '名字']) {
      expect(failure(await t.post(P, { name }, u.token))).toEqual([
        400,
        refusal('角色名需为 1 到 16 位字母、数字或下划线'),
      ]);
    }
    const tries = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.post(P, { name: profileName() }, u.token),
      ),
    );
    expect(tries.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(
      tries.filter((r) => r.statusCode === 400).map((r) => r.json()),
    ).toEqual(Array(4).fill(refusal('角色数量已达上限')));
    expect((await t.get(P, u.token)).json().data.profiles).toHaveLength(2);
  });

  it('lets an administrator rename or delete any profile', async () => {
    const u = await t.register();
    const admin = await t.admin();
    const p = await createProfile(u);
    expect(
      failure(
        await t.post(
          `${ADMIN}/rename`,
          { id: p.id, name: profileName() },
          u.token,
        ),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
    const renamed = profileName();
    expect(
      (
        await t.post(
          `${ADMIN}/rename`,
          { id: p.id, name: renamed },
          admin.token,
        )
      ).json().data,
    ).toEqual({ id: p.id, name: renamed });
    const listed = (
      await t.get(`${ADMIN}?username=${u.username}`, admin.token)
    ).json().data.profiles;
    expect(listed).toEqual([
      { id: p.id, name: renamed, skin: null, cape: null },
    ]);
    expect(
      (await t.post(`${ADMIN}/delete`, { id: p.id }, admin.token)).statusCode,
    ).toBe(200);
    expect((await t.get(P, u.token)).json().data.profiles).toEqual([]);
  });

  it('stores a real 64×64 skin PNG, serves it by hash with long caching, and refuses a non-PNG and an oversized file', async () => {
    const u = await t.register();
    const p = await createProfile(u);
    const skin = makePng(64, 64);
    const res = await upload(u, p.id, 'skin', skin, '?model=slim');
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.skin.model).toBe('slim');
    const served = await t.app.inject({ url: new URL(data.skin.url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('max-age=31536000');
    expect(served.rawPayload.equals(skin)).toBe(true);

    expect(
      failure(
        await upload(u, p.id, 'skin', Buffer.from('GIF89a not a png at all')),
      ),
    ).toEqual([400, BAD_TEXTURE]);
    expect(failure(await upload(u, p.id, 'skin', makePng(32, 32)))).toEqual([
      400,
      BAD_TEXTURE,
    ]);
    const broken = Buffer.from(skin);
    broken.writeUInt8(
      broken.readUInt8(broken.length - 20) ^ 0xff,
      broken.length - 20,
    );
    expect(failure(await upload(u, p.id, 'skin', broken))).toEqual([
      400,
      BAD_TEXTURE,
    ]);
    expect(
      (await upload(u, p.id, 'skin', makePng(64, 64, { padding: 70 * 1024 })))
        .statusCode,
    ).toBe(413);

    const cape = await upload(u, p.id, 'cape', makePng(22, 17));
    expect(cape.json().data.cape.url).toMatch(/\/textures\/[0-9a-f]{64}$/);
    expect(
      (
        await t.post(`${P}/model`, { id: p.id, model: 'default' }, u.token)
      ).json().data.skin.model,
    ).toBe('default');
    expect(
      (
        await t.post(
          `${P}/textures/delete`,
          { id: p.id, type: 'cape' },
          u.token,
        )
      ).json().data.cape,
    ).toBeNull();
    const other = await t.register();
    expect(failure(await upload(other, p.id, 'skin', skin))).toEqual([
      404,
      UNKNOWN,
    ]);
  });

  it('carries the authlib-injector header on every response', async () => {
    for (const res of [
      await t.get('/'),
      await t.get('/api/v1/auth/me'),
      await t.get('/no-such-page'),
    ]) {
      expect(res.headers['x-authlib-injector-api-location']).toBe(
        '/api/yggdrasil/',
      );
    }
  });
});

describe('Minecraft switched off', () => {
  it('answers 404 under the API root and sends no header', async () => {
    const off = await createTestApp();
    try {
      const u = await off.register();
      expect((await off.get('/api/yggdrasil/')).statusCode).toBe(404);
      expect((await off.get(P, u.token)).statusCode).toBe(404);
      expect(
        (await off.get('/')).headers['x-authlib-injector-api-location'],
      ).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
