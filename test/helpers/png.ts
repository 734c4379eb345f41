import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A real RGBA PNG of `width`×`height`, each pixel from `color` (a few random bytes by default,
 * so two calls give two files). `padding` adds an ancillary text chunk of that many bytes,
 * for files over a size limit.
 */
export function makePng(width: number, height: number, opts: { seed?: number; padding?: number } = {}): Buffer {
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 24);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) row.writeUInt32BE(((seed + x * 31 + y * 17) * 2654435761) >>> 0, 1 + x * 4);
    rows.push(row);
  }
  const extra = opts.padding ? [chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(opts.padding, 0x61)]))] : [];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), ...extra, chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0)),
  ]);
}
