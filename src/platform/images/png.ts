import { crc32, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngSize {
  width: number;
  height: number;
}

/**
 * The size of a well-formed PNG file, or undefined for anything else: the signature, then
 * chunks whose CRCs all check out, IHDR first, image data that inflates, IEND last with
 * nothing after it. Enough to refuse a renamed file or a truncated upload before it is
 * stored and handed to every game client that sees the player.
 */
export function pngSize(file: Buffer): PngSize | undefined {
  if (file.length < SIGNATURE.length + 12 + 13 || !file.subarray(0, 8).equals(SIGNATURE)) return undefined;
  let offset = 8;
  let size: PngSize | undefined;
  const data: Buffer[] = [];
  while (offset + 12 <= file.length) {
    const length = file.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (end > file.length) return undefined;
    const typeAndData = file.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== file.readUInt32BE(offset + 8 + length)) return undefined;
    const type = typeAndData.subarray(0, 4).toString('latin1');
    const body = typeAndData.subarray(4);
    if (size === undefined) {
      if (type !== 'IHDR' || length !== 13) return undefined;
      size = { width: body.readUInt32BE(0), height: body.readUInt32BE(4) };
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      if (end !== file.length || data.length === 0) return undefined;
      try {
        inflateSync(Buffer.concat(data));
      } catch {
        return undefined;
      }
      return size;
    }
    offset = end;
  }
  return undefined;
}
