import { createHash } from 'node:crypto';
import type { RgbaImage } from '../../platform/images/png.js';

/**
 * The name of a texture as authlib-injector's Yggdrasil specification defines it: the SHA-256
 * of the width and height (32-bit big-endian), then of each pixel as alpha, red, green, blue,
 * column by column (x outer, y inner), with fully transparent pixels all zero. It names the
 * picture, not the file: the same skin saved by another program keeps its URL, and the game
 * and launchers that cache by it agree with every other server of the specification.
 */
export function textureHash(image: RgbaImage): string {
  const { width, height, rgba } = image;
  const buf = Buffer.alloc(8 + width * height * 4);
  buf.writeUInt32BE(width, 0);
  buf.writeUInt32BE(height, 4);
  let pos = 8;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const i = (y * width + x) * 4;
      const alpha = rgba[i + 3]!;
      if (alpha !== 0) {
        buf[pos] = alpha;
        buf[pos + 1] = rgba[i]!;
        buf[pos + 2] = rgba[i + 1]!;
        buf[pos + 3] = rgba[i + 2]!;
      }
      pos += 4;
    }
  }
  return createHash('sha256').update(buf).digest('hex');
}
