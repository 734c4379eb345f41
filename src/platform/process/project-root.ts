import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project folder: the nearest folder above this module that holds a package.json. The
 * same answer whether the code runs from the sources (tests), from tsc's dist/ or from the
 * bundle under dist/server/, whose files sit at other depths.
 */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no package.json above the running code');
    dir = up;
  }
  return dir;
}
