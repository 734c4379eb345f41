import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal, uniqueName, type TestApp } from '../helpers/app.js';
import { makePng } from '../helpers/png.js';
import { createLogger } from '../../src/platform/logging/log.js';
import { Housekeeping } from '../../src/features/housekeeping/housekeeping.js';
import {
  P,
  startTextureApp,
  textureRequests,
} from './minecraft-textures-setup.js';

/** Skins and capes as stored and served: limits, clean-up, what is kept of a file, its name (docs/minecraft.md). */
const TOO_MANY = refusal('请求过于频繁，请稍后再试');
const HOUR = 3_600_000;
let clock = Date.UTC(2031, 2, 1, 12, 0, 0);
let t: TestApp;
beforeAll(async () => {
  t = await startTextureApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const { playerWithProfile, upload, served, skinUrl } = textureRequests(() => t);
const statusOf = async (url: string) => (await served(url)).statusCode;

describe('texture uploads per account', () => {
  it('are counted atomically: of 50 parallel uploads at most LIMIT_TEXTURE_UPLOAD pass, and only the skin in use is kept', async () => {
    const { u, id } = await playerWithProfile();
    const tries = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upload(u, id, 'skin', makePng(64, 64, { seed: 1000 + i })),
      ),
    );
    const passed = tries.filter((r) => r.statusCode === 200);
    expect(passed).toHaveLength(5);
    expect(
      tries.filter((r) => r.statusCode === 429).map((r) => r.json()),
    ).toEqual(Array(45).fill(TOO_MANY));
    expect(
      tries.find((r) => r.statusCode === 429)!.headers['retry-after'],
    ).toBeDefined();

    const current = (await t.get(`${P}/${id}`, u.token)).json().data.skin
      .url as string;
    const urls = [
      ...new Set(passed.map((r) => r.json().data.skin.url as string)),
    ];
    expect(urls).toHaveLength(5);
    expect(await Promise.all(urls.map(statusOf))).toEqual(
      urls.map((url) => (url === current ? 200 : 404)),
    );
  });

  it("are counted for the launcher's PUT too, answered in the protocol's format", async () => {
    const { u, id } = await playerWithProfile();
    for (let i = 0; i < 5; i++)
      expect((await upload(u, id, 'skin', makePng(64, 64))).statusCode).toBe(
        200,
      );
    const signedIn = await t.post('/api/yggdrasil/authserver/authenticate', {
      username: u.username,
      password: u.password,
    });
    const form = new FormData();
    form.set('model', '');
    form.set(
      'file',
      new Blob([makePng(64, 64)], { type: 'image/png' }),
      'skin.png',
    );
    const request = new Request('http://x/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/yggdrasil/api/user/profile/${id}/skin`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: {
        authorization: `Bearer ${signedIn.json().accessToken}`,
        'content-type': request.headers.get('content-type')!,
      },
    });
    expect([res.statusCode, res.json().error]).toEqual([
      429,
      'ForbiddenOperationException',
    ]);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('textures nothing uses', () => {
  it('are deleted when replaced, taken off or their profile deleted; one another profile uses stays', async () => {
    const a = await playerWithProfile();
    const b = await playerWithProfile();
    const shared = makePng(64, 64);
    const first = await skinUrl(a.u, a.id, shared);
    expect(await skinUrl(b.u, b.id, shared)).toBe(first);

    const second = await skinUrl(a.u, a.id, makePng(64, 64));
    expect(await statusOf(first)).toBe(200);
    expect(
      (
        await t.post(
          `${P}/textures/delete`,
          { id: b.id, type: 'skin' },
          b.u.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await statusOf(first)).toBe(404);

    const cape = (await upload(a.u, a.id, 'cape', makePng(64, 32))).json().data
      .cape.url as string;
    expect(
      (
        await t.post(
          `${P}/textures/delete`,
          { id: a.id, type: 'cape' },
          a.u.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await statusOf(cape)).toBe(404);

    expect(await statusOf(second)).toBe(200);
    expect(
      (await t.post(`${P}/delete`, { id: a.id }, a.u.token)).statusCode,
    ).toBe(200);
    expect(await statusOf(second)).toBe(404);
  });

  it('left over are deleted by housekeeping once an hour old; textures in use stay', async () => {
    const { u, id } = await playerWithProfile();
    const used = await skinUrl(u, id, makePng(64, 64));
    const repo = t.runtime.storage.minecraft.textures;
    const old = createHash('sha256').update(uniqueName('old')).digest('hex');
    const fresh = createHash('sha256')
      .update(uniqueName('fresh'))
      .digest('hex');
    await repo.put(old, makePng(64, 64), clock - 2 * HOUR);
    await repo.put(fresh, makePng(64, 64), clock);
    expect(await statusOf(`http://x/textures/${old}`)).toBe(200);

    clock += 30 * 60_000;
    await new Housekeeping(
      t.runtime.storage,
      { reload: async () => undefined },
      () => clock,
      createLogger('silent'),
    ).run();
    expect(await statusOf(`http://x/textures/${old}`)).toBe(404);
    expect(await statusOf(`http://x/textures/${fresh}`)).toBe(200);
    expect(await statusOf(used)).toBe(200);
  });
});
