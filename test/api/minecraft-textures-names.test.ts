import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, refusal, type TestApp } from '../helpers/app.js';
import {
  chunk,
  makePng,
  pngOf,
  rgbaScanlines,
  seededPixels,
} from '../helpers/png.js';
import {
  P,
  startTextureApp,
  textureRequests,
} from './minecraft-textures-setup.js';

/** Skins and capes as stored and served: limits, clean-up, what is kept of a file, its name (docs/minecraft.md). */
const BAD_TEXTURE = refusal(
  '材质须为 PNG 图片，皮肤 64×32 或 64×64，披风 64×32 或 22×17',
);
const clock = Date.UTC(2031, 2, 1, 12, 0, 0);
let t: TestApp;
beforeAll(async () => {
  t = await startTextureApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const { playerWithProfile, upload, served, skinUrl } = textureRequests(() => t);

/** authlib-injector's texture hash, as its specification writes it: size, then ARGB column by column, transparent pixels zeroed. */
function specTextureHash(width: number, height: number, rgba: Buffer): string {
  const buf = Buffer.alloc(8 + width * height * 4);
  buf.writeUInt32BE(width, 0);
  buf.writeUInt32BE(height, 4);
  let pos = 8;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const i = (y * width + x) * 4;
      const alpha = rgba[i + 3]!;
      buf[pos] = alpha;
      if (alpha !== 0) rgba.copy(buf, pos + 1, i, i + 3);
      pos += 4;
    }
  }
  return createHash('sha256').update(buf).digest('hex');
}

describe('what is kept of an upload', () => {
  it('only the image: ancillary chunks are not stored or served', async () => {
    const { u, id } = await playerWithProfile();
    const url = await skinUrl(
      u,
      id,
      makePng(64, 64, { seed: 77, padding: 4000 }),
    );
    const body = (await served(url)).rawPayload;
    expect(body.includes(Buffer.from('tEXt'))).toBe(false);
    expect(body.equals(makePng(64, 64, { seed: 77 }))).toBe(true);
  });

  it('refuses image data that inflates beyond the size its header gives, or short of it', async () => {
    const { u, id } = await playerWithProfile();
    // The rows of a 64×64 RGBA image are 16,640 bytes; this inflates to 60 MB from under 64 KiB.
    const bomb = pngOf({ width: 64, height: 64 }, Buffer.alloc(0), {
      compressed: deflateSync(Buffer.alloc(60_000_000), { level: 9 }),
    });
    expect(bomb.length).toBeLessThanOrEqual(64 * 1024);
    expect(failure(await upload(u, id, 'skin', bomb))).toEqual([
      400,
      BAD_TEXTURE,
    ]);
    const short = pngOf({ width: 64, height: 64 }, Buffer.alloc(64 * 257 - 1));
    expect(failure(await upload(u, id, 'skin', short))).toEqual([
      400,
      BAD_TEXTURE,
    ]);
    const badFilter = pngOf(
      { width: 64, height: 64 },
      Buffer.alloc(64 * 257, 9),
    );
    expect(failure(await upload(u, id, 'skin', badFilter))).toEqual([
      400,
      BAD_TEXTURE,
    ]);
    expect((await t.get(`${P}/${id}`, u.token)).json().data.skin).toBeNull();
  });
});

describe('texture names', () => {
  it("are authlib-injector's hash of the image: the same picture in another encoding keeps its URL", async () => {
    const { u, id } = await playerWithProfile();
    // A 64×64 picture of four colours, a quarter of it fully transparent (with colour under it).
    const colours = [
      [200, 10, 10, 255],
      [10, 200, 10, 128],
      [10, 10, 200, 255],
      [1, 2, 3, 0],
    ];
    const index = (x: number, y: number) => ((x >> 3) + (y >> 3)) % 4;
    const rgba = Buffer.alloc(64 * 64 * 4);
    for (let y = 0; y < 64; y++)
      for (let x = 0; x < 64; x++)
        rgba.set(colours[index(x, y)]!, (y * 64 + x) * 4);
    const plain = pngOf({ width: 64, height: 64 }, rgbaScanlines(64, 64, rgba));
    const url = await skinUrl(u, id, plain);
    expect(url).toBe(
      `${new URL(url).origin}/textures/${specTextureHash(64, 64, rgba)}`,
    );

    // The same picture as a palette image (other colour under the transparent one), packed hard, in small chunks.
    const palette = Buffer.from([
      200, 10, 10, 10, 200, 10, 10, 10, 200, 9, 9, 9,
    ]);
    const indexed = Buffer.alloc(64 * 65);
    for (let y = 0; y < 64; y++)
      for (let x = 0; x < 64; x++) indexed[y * 65 + 1 + x] = index(x, y);
    const paletted = pngOf({ width: 64, height: 64, colorType: 3 }, indexed, {
      chunks: [
        chunk('PLTE', palette),
        chunk('tRNS', Buffer.from([255, 128, 255, 0])),
      ],
      level: 9,
      idatSize: 100,
    });
    expect(await skinUrl(u, id, paletted)).toBe(url);

    // And interlaced (Adam7), each pass's rows filtered with "none".
    expect(
      await skinUrl(
        u,
        id,
        pngOf({ width: 64, height: 64, interlace: 1 }, adam7(64, 64, rgba)),
      ),
    ).toBe(url);
    expect(await skinUrl(u, id, makePng(64, 64, { seed: 5 }))).toMatch(
      new RegExp(
        `/textures/${specTextureHash(64, 64, seededPixels(64, 64, 5))}$`,
      ),
    );
  });

  it('of textures stored under the file digest before keep being served and used', async () => {
    const { u, id } = await playerWithProfile();
    const file = makePng(64, 64);
    const digest = createHash('sha256').update(file).digest('hex');
    await t.runtime.storage.minecraft.textures.put(digest, file, clock);
    await t.runtime.storage.minecraft.profiles.setTexture(
      id,
      'skin',
      digest,
      'default',
      clock,
    );
    const url = (await t.get(`${P}/${id}`, u.token)).json().data.skin
      .url as string;
    expect(url.endsWith(`/textures/${digest}`)).toBe(true);
    expect((await served(url)).rawPayload.equals(file)).toBe(true);
  });

  it('are served as inert images: nosniff and a policy that runs nothing', async () => {
    const { u, id } = await playerWithProfile();
    const res = await served(await skinUrl(u, id, makePng(64, 64)));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
  });
});

/** RGBA pixels as the seven Adam7 passes of unfiltered scanlines. */
function adam7(width: number, height: number, rgba: Buffer): Buffer {
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const;
  const out: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      const row: number[] = [0];
      for (let x = x0; x < width; x += dx)
        row.push(
          ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
        );
      if (row.length > 1) out.push(Buffer.from(row));
    }
  }
  return Buffer.concat(out);
}
