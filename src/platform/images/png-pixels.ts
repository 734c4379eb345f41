/**
 * From a PNG's inflated image data to 8-bit RGBA pixels: the scanline filters undone, Adam7
 * passes put in place, every colour type and bit depth of the PNG specification converted.
 */

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA. */
  colorType: number;
  interlaced: boolean;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7: each pass's first column and row, and its steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

function passesOf(h: PngHeader): Pass[] {
  if (!h.interlaced)
    return [{ x0: 0, y0: 0, dx: 1, dy: 1, width: h.width, height: h.height }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    width: Math.max(0, Math.ceil((h.width - x0) / dx)),
    height: Math.max(0, Math.ceil((h.height - y0) / dy)),
  })).filter((p) => p.width > 0 && p.height > 0);
}

const bitsPerPixel = (h: PngHeader): number =>
  CHANNELS[h.colorType]! * h.bitDepth;
const strideOf = (h: PngHeader, width: number): number =>
  Math.ceil((width * bitsPerPixel(h)) / 8);

/** The inflated size of the image data the header implies: each scanline of each pass, with its filter byte. */
export function imageDataLength(h: PngHeader): number {
  return passesOf(h).reduce(
    (n, p) => n + p.height * (1 + strideOf(h, p.width)),
    0,
  );
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes the filters of `rows` scanlines from `raw` at `offset`; undefined for an unknown filter type. */
function unfilter(
  raw: Buffer,
  offset: number,
  rows: number,
  stride: number,
  bpp: number,
): Buffer | undefined {
  const out = Buffer.alloc(rows * stride);
  for (let r = 0; r < rows; r++) {
    const filter = raw[offset + r * (stride + 1)]!;
    if (filter > 4) return undefined;
    const line = offset + r * (stride + 1) + 1;
    const at = r * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[at + i - bpp]! : 0;
      const b = r > 0 ? out[at - stride + i]! : 0;
      const c = i >= bpp && r > 0 ? out[at - stride + i - bpp]! : 0;
      const predicted =
        filter === 0
          ? 0
          : filter === 1
            ? a
            : filter === 2
              ? b
              : filter === 3
                ? (a + b) >> 1
                : paeth(a, b, c);
      out[at + i] = (raw[line + i]! + predicted) & 0xff;
    }
  }
  return out;
}

/** Reads sample `index` of a scanline at the header's bit depth. */
function sampleAt(
  line: Buffer,
  start: number,
  index: number,
  depth: number,
): number {
  if (depth === 8) return line[start + index]!;
  if (depth === 16) return line.readUInt16BE(start + index * 2);
  const bit = index * depth;
  return (
    (line[start + (bit >> 3)]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)
  );
}

/** A sample as 8 bits: low depths stretched to the full range, 16 bits cut to their high byte. */
const to8 = (v: number, depth: number): number =>
  depth === 16 ? v >> 8 : depth === 8 ? v : (v * 255) / ((1 << depth) - 1);

/**
 * The pixels as 8-bit RGBA, or undefined when the data cannot be an image (an unknown filter,
 * a palette index past the palette, a palette image without one).
 */
export function toRgba(
  h: PngHeader,
  raw: Buffer,
  palette: Buffer | undefined,
  transparency: Buffer | undefined,
): Buffer | undefined {
  const paletteSize = palette ? palette.length / 3 : 0;
  if (
    h.colorType === 3 &&
    (!Number.isInteger(paletteSize) || paletteSize < 1 || paletteSize > 256)
  )
    return undefined;
  const channels = CHANNELS[h.colorType]!;
  const depth = h.bitDepth;
  const key = transparency ?? Buffer.alloc(0);
  const rgba = Buffer.alloc(h.width * h.height * 4);
  let offset = 0;
  for (const pass of passesOf(h)) {
    const stride = strideOf(h, pass.width);
    const pixels = unfilter(
      raw,
      offset,
      pass.height,
      stride,
      Math.max(1, bitsPerPixel(h) >> 3),
    );
    if (!pixels) return undefined;
    offset += pass.height * (stride + 1);
    for (let py = 0; py < pass.height; py++) {
      for (let px = 0; px < pass.width; px++) {
        const s = (c: number) =>
          sampleAt(pixels, py * stride, px * channels + c, depth);
        const at =
          ((pass.y0 + py * pass.dy) * h.width + pass.x0 + px * pass.dx) * 4;
        let r: number, g: number, b: number, a: number;
        if (h.colorType === 3) {
          const i = s(0);
          if (i >= paletteSize) return undefined;
          [r, g, b, a] = [
            palette![i * 3]!,
            palette![i * 3 + 1]!,
            palette![i * 3 + 2]!,
            i < key.length ? key[i]! : 255,
          ];
        } else if (h.colorType === 0 || h.colorType === 4) {
          const v = s(0);
          r = g = b = to8(v, depth);
          a =
            h.colorType === 4
              ? to8(s(1), depth)
              : key.length >= 2 && v === key.readUInt16BE(0)
                ? 0
                : 255;
        } else {
          const [vr, vg, vb] = [s(0), s(1), s(2)];
          [r, g, b] = [to8(vr, depth), to8(vg, depth), to8(vb, depth)];
          const keyed =
            h.colorType === 2 &&
            key.length >= 6 &&
            vr === key.readUInt16BE(0) &&
            vg === key.readUInt16BE(2) &&
            vb === key.readUInt16BE(4);
          a = h.colorType === 6 ? to8(s(3), depth) : keyed ? 0 : 255;
        }
        rgba[at] = r;
        rgba[at + 1] = g;
        rgba[at + 2] = b;
        rgba[at + 3] = a;
      }
    }
  }
  return rgba;
}
