import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { imageDataLength, toRgba, type PngHeader } from './png-pixels.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngSize {
  width: number;
  height: number;
}

/** A decoded image: 8-bit RGBA, row by row, four bytes a pixel. */
export interface RgbaImage extends PngSize {
  rgba: Buffer;
}

/** The largest image decodePng takes unless told otherwise: 16 MiB of RGBA. */
const MAX_PIXELS = 4096 * 1024;
/** Bit depths each colour type allows (PNG specification, 11.2.2). */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

function headerOf(body: Buffer): PngHeader | undefined {
  const h = {
    width: body.readUInt32BE(0),
    height: body.readUInt32BE(4),
    bitDepth: body[8]!,
    colorType: body[9]!,
    interlaced: body[12] === 1,
  };
  const valid =
    h.width > 0 &&
    h.height > 0 &&
    DEPTHS[h.colorType]?.includes(h.bitDepth) &&
    body[10] === 0 &&
    body[11] === 0 &&
    body[12]! <= 1;
  return valid ? h : undefined;
}

interface PngParts {
  header: PngHeader;
  palette?: Buffer;
  transparency?: Buffer;
  data: Buffer[];
}

/**
 * The critical parts of a well-formed PNG file: the signature, then chunks whose CRCs all
 * check out, IHDR first, PLTE and tRNS before the image data, IEND last with nothing after.
 * Ancillary chunks (text, colour profiles, anything a program added) are skipped; an unknown
 * critical chunk makes the file unreadable, as the PNG specification says.
 */
function partsOf(file: Buffer): PngParts | undefined {
  if (
    file.length < SIGNATURE.length + 12 + 13 ||
    !file.subarray(0, 8).equals(SIGNATURE)
  )
    return undefined;
  let offset = 8;
  let parts: PngParts | undefined;
  let dataEnded = false;
  while (offset + 12 <= file.length) {
    const length = file.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (end > file.length) return undefined;
    const typeAndData = file.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== file.readUInt32BE(offset + 8 + length))
      return undefined;
    const type = typeAndData.subarray(0, 4).toString('latin1');
    const body = typeAndData.subarray(4);
    offset = end;
    if (parts === undefined) {
      const header =
        type === 'IHDR' && length === 13 ? headerOf(body) : undefined;
      if (!header) return undefined;
      parts = { header, data: [] };
    } else if (type === 'IDAT') {
      // The image data chunks follow each other with nothing between.
      if (dataEnded) return undefined;
      parts.data.push(body);
    } else {
      dataEnded = parts.data.length > 0;
      if (type === 'IEND')
        return end === file.length && dataEnded ? parts : undefined;
      if (type === 'PLTE' || type === 'tRNS') {
        if (dataEnded) return undefined;
        parts[type === 'PLTE' ? 'palette' : 'transparency'] = body;
      } else if (/^[A-Z]/.test(type)) {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The size a PNG file's header gives, or undefined when the file does not even start as a
 * PNG: read before any decoding, so a caller refuses an unwanted size for nothing.
 */
export function pngHeaderSize(file: Buffer): PngSize | undefined {
  if (
    file.length < 8 + 8 + 13 ||
    !file.subarray(0, 8).equals(SIGNATURE) ||
    file.toString('latin1', 12, 16) !== 'IHDR'
  )
    return undefined;
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

/**
 * Decodes a PNG file to 8-bit RGBA, or undefined for anything that is not a well-formed PNG.
 * The image data is inflated with a ceiling equal to the size the header implies, and must
 * be exactly that size: a small file that would inflate to megabytes (a "zip bomb") is
 * refused as soon as it passes the ceiling, not after.
 */
export function decodePng(
  file: Buffer,
  maxPixels = MAX_PIXELS,
): RgbaImage | undefined {
  const parts = partsOf(file);
  if (!parts || parts.header.width * parts.header.height > maxPixels)
    return undefined;
  const expected = imageDataLength(parts.header);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(parts.data), { maxOutputLength: expected });
  } catch {
    return undefined;
  }
  if (raw.length !== expected) return undefined;
  const rgba = toRgba(parts.header, raw, parts.palette, parts.transparency);
  return (
    rgba && { width: parts.header.width, height: parts.header.height, rgba }
  );
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * A PNG of the image and nothing else: IHDR (8-bit RGBA, not interlaced), one IDAT of
 * unfiltered rows, IEND. The same pixels always give the same file.
 */
export function encodePng(image: RgbaImage): Buffer {
  const { width, height, rgba } = image;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const stride = width * 4;
  const rows = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++)
    rgba.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
