import type { FastifyInstance } from 'fastify';

/**
 * The site icon: a shield with a keyhole in the pages' primary colour (styles.css --primary).
 * The SVG is what the pages link to; /favicon.ico is the same shape drawn into a 16×16 and a
 * 32×32 bitmap, for browsers and tools that ask for it whatever the page says.
 */
const PRIMARY: readonly [number, number, number] = [0x25, 0x63, 0xeb];

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<path fill="#2563eb" d="M16 2 28 6.5V15c0 7.2-5 12.6-12 15C9 27.6 4 22.2 4 15V6.5Z"/>
<circle cx="16" cy="13" r="3.6" fill="#fff"/>
<path fill="#fff" d="M14.4 14.5h3.2l1 8h-5.2Z"/>
</svg>
`;

/** Where the shape is, in the SVG's 32-unit square: 'shield', 'hole' or nothing. */
function partAt(x: number, y: number): 'shield' | 'hole' | undefined {
  if ((x - 16) ** 2 + (y - 13) ** 2 <= 3.6 ** 2) return 'hole';
  if (y >= 14.5 && y <= 22.5 && Math.abs(x - 16) <= 1.6 + (y - 14.5) / 8)
    return 'hole';
  if (y < 2 || y > 30) return undefined;
  // The top edge slopes down from the point at (16, 2) to the shoulders at y 6.5.
  const top = 2 + 4.5 * (Math.abs(x - 16) / 12);
  if (y < top || Math.abs(x - 16) > 12) return undefined;
  if (y <= 15) return 'shield';
  // Below y 15 the sides curve in to the tip at (16, 30).
  const t = (y - 15) / 15;
  return Math.abs(x - 16) <= 12 * Math.sqrt(1 - t * t) ? 'shield' : undefined;
}

/** One square bitmap as an ICO entry's DIB: BGRA rows bottom-up, then an all-clear AND mask. */
function dibOf(size: number): Buffer {
  const maskRow = Math.ceil(size / 32) * 4;
  const dib = Buffer.alloc(40 + size * size * 4 + maskRow * size);
  dib.writeUInt32LE(40, 0);
  dib.writeInt32LE(size, 4);
  dib.writeInt32LE(size * 2, 8); // colour rows plus mask rows
  dib.writeUInt16LE(1, 12);
  dib.writeUInt16LE(32, 14);
  // Four samples a pixel soften the edges.
  const samples = [0.25, 0.75];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      let shield = 0;
      let hole = 0;
      for (const dy of samples)
        for (const dx of samples) {
          const part = partAt(
            ((col + dx) * 32) / size,
            ((row + dy) * 32) / size,
          );
          if (part === 'shield') shield++;
          else if (part === 'hole') hole++;
        }
      const covered = shield + hole;
      const at = 40 + ((size - 1 - row) * size + col) * 4;
      if (covered === 0) continue;
      const mix = (c: number) =>
        Math.round((c * shield + 255 * hole) / covered);
      dib[at] = mix(PRIMARY[2]);
      dib[at + 1] = mix(PRIMARY[1]);
      dib[at + 2] = mix(PRIMARY[0]);
      dib[at + 3] = Math.round((255 * covered) / 4);
    }
  }
  return dib;
}

/** An ICO file holding one bitmap per size. */
export function icoOf(sizes: readonly number[]): Buffer {
  const images = sizes.map(dibOf);
  const header = Buffer.alloc(6 + 16 * sizes.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    header[entry] = size;
    header[entry + 1] = size;
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(images[i]!.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += images[i]!.length;
  });
  return Buffer.concat([header, ...images]);
}

/** /favicon.svg and /favicon.ico, drawn once per app; an icon may be cached for a day. */
export function faviconRoutes(
  app: FastifyInstance,
  headers: Record<string, string>,
): void {
  const ico = icoOf([16, 32]);
  const cached = { ...headers, 'cache-control': 'public, max-age=86400' };
  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .headers({ ...cached, 'content-type': 'image/svg+xml' })
      .send(FAVICON_SVG),
  );
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...cached, 'content-type': 'image/x-icon' }).send(ico),
  );
}
