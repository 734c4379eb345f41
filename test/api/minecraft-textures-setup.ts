import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { profileName } from './minecraft-yggdrasil-setup.js';

/** What the texture files share: an app with Minecraft on and the upload and serving requests. */
export const P = '/api/v1/auth/account/minecraft/profiles';

/** A fresh app whose clock reads `now`, allowing five texture uploads an hour. */
export function startTextureApp(now: () => number) {
  return createTestApp(
    { MINECRAFT: 'on', LIMIT_TEXTURE_UPLOAD: '5/3600' },
    { now },
  );
}

/** Players, uploads and served files at the app `current()` returns. */
export function textureRequests(current: () => TestApp) {
  async function playerWithProfile(): Promise<{ u: TestUser; id: string }> {
    const t = current();
    const u = await t.register();
    const res = await t.post(P, { name: profileName() }, u.token);
    expect(res.statusCode, res.body).toBe(200);
    return { u, id: res.json().data.id };
  }

  const upload = (u: TestUser, id: string, type: string, file: Buffer) =>
    current().app.inject({
      method: 'POST',
      url: `${P}/${id}/textures/${type}`,
      payload: file,
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': 'image/png',
      },
    });
  const served = (url: string) =>
    current().app.inject({ url: new URL(url).pathname });

  async function skinUrl(
    u: TestUser,
    id: string,
    file: Buffer,
  ): Promise<string> {
    const res = await upload(u, id, 'skin', file);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.skin.url;
  }

  return { playerWithProfile, upload, served, skinUrl };
}
