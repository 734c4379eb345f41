import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and CRC. */
export function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** The RGBA pixels (row by row) makePng draws for `seed`. */
export function seededPixels(
  width: number,
  height: number,
  seed: number,
): Buffer {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      rgba.writeUInt32BE(
        ((seed + x * 31 + y * 17) * 2654435761) >>> 0,
        (y * width + x) * 4,
      );
  }
  return rgba;
}

export interface PngLayout {
  width: number;
  height: number;
  bitDepth?: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA (the default). */
  colorType?: number;
  interlace?: 0 | 1;
}

/**
 * A PNG of already-filtered image data `raw` (each scanline led by its filter byte), with
 * `chunks` (PLTE, tRNS, text…) before the image data, compressed at `level`, cut into
 * IDAT chunks of at most `idatSize` bytes.
 */
export function pngOf(
  layout: PngLayout,
  raw: Buffer,
  opts: {
    chunks?: Buffer[];
    level?: number;
    idatSize?: number;
    compressed?: Buffer;
  } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(layout.width, 0);
  ihdr.writeUInt32BE(layout.height, 4);
  ihdr[8] = layout.bitDepth ?? 8;
  ihdr[9] = layout.colorType ?? 6;
  ihdr[12] = layout.interlace ?? 0;
  const data =
    opts.compressed ??
    deflateSync(raw, opts.level === undefined ? {} : { level: opts.level });
  const size = opts.idatSize ?? data.length;
  const idats: Buffer[] = [];
  for (let at = 0; at < data.length; at += size)
    idats.push(chunk('IDAT', data.subarray(at, at + size)));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...(opts.chunks ?? []),
    ...idats,
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** RGBA pixels as unfiltered scanlines (filter byte 0 before each row). */
export function rgbaScanlines(
  width: number,
  height: number,
  rgba: Buffer,
): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++)
    rows.push(
      Buffer.concat([
        Buffer.from([0]),
        rgba.subarray(y * width * 4, (y + 1) * width * 4),
      ]),
    );
  return Buffer.concat(rows);
}

/**
 * A real RGBA PNG of `width`×`height`, each pixel from `color` (a few random bytes by default,
 * so two calls give two files). `padding` adds an ancillary text chunk of that many bytes,
 * for files over a size limit.
 */
export function makePng(
  width: number,
  height: number,
  opts: { seed?: number; padding?: number } = {},
): Buffer {
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 24);
  const extra = opts.padding
    ? [
        chunk(
          'tEXt',
          Buffer.concat([
            Buffer.from('Comment\0'),
            Buffer.alloc(opts.padding, 0x61),
          ]),
        ),
      ]
    : [];
  return pngOf(
    { width, height },
    rgbaScanlines(width, height, seededPixels(width, height, seed)),
    { chunks: extra },
  );
}
